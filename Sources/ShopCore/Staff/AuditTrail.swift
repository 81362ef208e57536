import Foundation
import SQL

/// Appends to and reads `audit_log`. Services that make staff writes call `record` inside the
/// write's own transaction, so a write and its audit row commit or roll back together.
public struct AuditTrail: Sendable {
    /// The longest before/after text kept; a larger value is cut (and marked) rather than refused.
    static let maxValueBytes = 16_384

    public init() {}

    /// Records `action` on `target` by `actor`; `before`/`after` are encoded as JSON (snake_case keys,
    /// sorted, so equal values read the same).
    public func record(_ actor: StaffActor, _ action: String, target: String, before: (any Encodable)? = nil,
                       after: (any Encodable)? = nil, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO audit_log (staff_id, actor, action, target, before_json, after_json, request_id, created_at)
            VALUES (\(actor.staffID), \(actor.name), \(action), \(target), \(try Self.json(before)), \(try Self.json(after)),
                    \(actor.requestID), \(now))
            """)
    }

    /// A page of entries matching `filter`, newest first.
    func page(_ filter: AuditFilter, _ page: PageRequest, _ db: any SQLConnection) throws -> Page<AuditEntry> {
        var conditions: [SQL] = []
        if let staff = filter.staff { conditions.append("actor = \(staff)") }
        if let target = filter.target { conditions.append("target = \(target)") }
        if let from = filter.from { conditions.append("created_at >= \(from)") }
        if let to = filter.to { conditions.append("created_at < \(to)") }
        let filterSQL: SQL = conditions.isEmpty ? .empty : "WHERE \(conditions.joined(separator: " AND "))"
        return try db.page(page, count: "SELECT COUNT(*) FROM audit_log \(filterSQL)", rows: """
            SELECT id, staff_id, actor, action, target, before_json, after_json, request_id, created_at
            FROM audit_log \(filterSQL) ORDER BY created_at DESC, id DESC
            """) { row in
            AuditEntry(id: try row.decode("id"), staffID: try row.decode("staff_id"), actor: try row.decode("actor"),
                       action: try row.decode("action"), target: try row.decode("target"),
                       before: try row.decode("before_json"), after: try row.decode("after_json"),
                       requestID: try row.decode("request_id"), createdAt: try row.decode("created_at"))
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func json(_ value: (any Encodable)?) throws -> String? {
        guard let value else { return nil }
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        guard text.utf8.count > maxValueBytes else { return text }
        return String(decoding: Array(text.utf8.prefix(maxValueBytes)), as: UTF8.self) + "…(truncated)"
    }
}

/// Reading the audit log (`GET /admin/audit`, owner and manager).
public struct AuditLog: Sendable {
    let pool: any Database
    private let trail = AuditTrail()

    public init(pool: any Database) { self.pool = pool }

    public func entries(_ filter: AuditFilter, page: PageRequest) throws -> Page<AuditEntry> {
        try pool.read { db in try trail.page(filter, page, db) }
    }
}
