import Foundation
import SQL

/// One recorded staff write.
public struct AuditEntry: Sendable, Equatable, Codable {
    public let id: AuditEntryID
    public let staffID: StaffID?
    /// The staff member's username, or `cli:<user>` for the command line.
    public let actor: String
    /// What was done: `sku.update`, `order.refund`, `user.ban`…
    public let action: String
    /// What it was done to: `sku:12`, `order:20261202…`, `user:7`…
    public let target: String
    /// The values before and after, as JSON text (nil where there is none: a creation has no before).
    public let before: String?
    public let after: String?
    public let requestID: String?
    public let createdAt: Int64
}

/// Which audit entries to read: any combination; newest first.
public struct AuditFilter: Sendable, Equatable {
    public var staff: String?
    public var target: String?
    public var from: Int64?
    public var to: Int64?

    public init(staff: String? = nil, target: String? = nil, from: Int64? = nil, to: Int64? = nil) {
        self.staff = staff
        self.target = target
        self.from = from
        self.to = to
    }
}
