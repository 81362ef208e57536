import Foundation
import HTTP
import ShopCore

/// `/admin/auth` and `/admin/me`: staff sign in and out, and who is signed in.
struct AdminAuthController {
    let staff: StaffService

    struct LoginRequest: Decodable {
        let username: String
        let password: String
    }

    func register(public api: RouteGroup, admin: AdminRoutes) {
        // Argon2 runs on the hashing bulkhead, never on a request thread, as for buyers
        api.post("/admin/auth/login", on: .hashing, use: login)
        admin.post("/admin/auth/logout", use: logout)
            .get("/admin/me", use: me)
    }

    /// 200 `{"token", "expires_at", "staff"}`; wrong name or password, or a disabled account → 401.
    func login(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(LoginRequest.self)
        let session = try staff.login(username: body.username, password: body.password, clientIP: request.clientAddress)
        return try .json(StaffSessionResponse(session))
    }

    func logout(_ request: Request, _ context: Context) throws -> Response {
        if let token = AuthMiddleware.bearerToken(request) { try staff.logout(token: token) }
        return .empty()
    }

    /// The signed-in staff member and every permission their role holds (the page hides the rest).
    func me(_ request: Request, _ context: Context) throws -> Response {
        try .json(StaffMeResponse(try context.staff()))
    }
}

/// `{"id", "username", "role"}`, plus `disabled` and `created_at` where the owner lists accounts.
struct StaffResponse: Codable {
    let id: StaffID
    let username: String
    let role: StaffRole
    let disabled: Bool?
    let createdAt: Date?

    init(_ member: StaffMember, full: Bool = false) {
        id = member.id
        username = member.username
        role = member.role
        disabled = full ? member.isDisabled : nil
        createdAt = full ? Date(timeIntervalSince1970: TimeInterval(member.createdAt)) : nil
    }
}

struct StaffSessionResponse: Codable {
    let token: String
    let expiresAt: Date
    let staff: StaffResponse

    init(_ session: StaffSession) {
        token = session.token
        expiresAt = session.expiresAt
        staff = StaffResponse(session.staff)
    }
}

struct StaffMeResponse: Codable {
    let id: StaffID
    let username: String
    let role: StaffRole
    let permissions: [String]

    init(_ principal: StaffPrincipal) {
        id = principal.id
        username = principal.username
        role = principal.role
        permissions = principal.role.permissions.map(\.rawValue).sorted()
    }
}
