import Foundation
import HTTP
import ShopCore

/// `/admin/staff` (owner): the staff accounts, as `shop staff …` manages them.
struct AdminStaffController {
    let staff: StaffService

    struct AddRequest: Decodable {
        let username: String
        let role: StaffRole
        /// Omitted: a one-time password is made and answered once.
        let password: String?
    }

    struct ChangeRequest: Decodable {
        let role: StaffRole?
        let disabled: Bool?
    }

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/staff", use: list)
            .post("/admin/staff", on: .hashing, use: add)
            .patch("/admin/staff/:username", use: change)
    }

    func list(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try staff.list().map { StaffResponse($0, full: true) }))
    }

    /// 201 `{"staff", "password"}`: the password is shown this once.
    func add(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(AddRequest.self)
        let added = try staff.add(username: body.username, role: body.role, password: body.password, by: try context.staffActor())
        return try .json(AddedResponse(staff: StaffResponse(added.member, full: true), password: added.password), status: .created)
    }

    func change(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(ChangeRequest.self)
        let username = try request.parameter("username")
        let actor = try context.staffActor()
        var member = try staff.member(username)
        if let role = body.role { member = try staff.setRole(username, to: role, by: actor) }
        if let disabled = body.disabled { member = try staff.setDisabled(username, disabled, by: actor) }
        return try .json(StaffResponse(member, full: true))
    }

    struct AddedResponse: Codable {
        let staff: StaffResponse
        let password: String
    }
}

/// `/admin/audit` (owner and manager): what staff changed, newest first.
struct AdminAuditController {
    let audit: AuditLog
    let timeZone: TimeZone

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/audit", use: list)
    }

    /// `?staff=USERNAME&target=order:…&from=YYYY-MM-DD&to=YYYY-MM-DD` (days in `app.timezone`, `to` included).
    func list(_ request: Request, _ context: Context) throws -> Response {
        var filter = AuditFilter(staff: try request.queryText("staff", max: 64), target: try request.queryText("target", max: 200))
        if let from = try request.queryDay("from") { filter.from = from.start(in: timeZone) }
        if let to = try request.queryDay("to") { filter.to = to.adding(days: 1).start(in: timeZone) }
        let page = try audit.entries(filter, page: try request.pageRequest())
        return try .json(PageResponse(page, AuditEntryResponse.init))
    }
}

struct AuditEntryResponse: Codable {
    let id: AuditEntryID
    let staffID: StaffID?
    let actor: String
    let action: String
    let target: String
    let before: JSONValue?
    let after: JSONValue?
    let requestID: String?
    let createdAt: Date

    init(_ entry: AuditEntry) {
        id = entry.id
        staffID = entry.staffID
        actor = entry.actor
        action = entry.action
        target = entry.target
        before = entry.before.flatMap(Self.value)
        after = entry.after.flatMap(Self.value)
        requestID = entry.requestID
        createdAt = Date(timeIntervalSince1970: TimeInterval(entry.createdAt))
    }

    /// The stored JSON text as a value (the text itself where it no longer parses, e.g. cut short).
    static func value(_ text: String) -> JSONValue? {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
    }
}
