import Bulkheads
import HTTP
import ShopCore

/// The admin routes' group: each route is registered with the permission `AdminPermissions`
/// names for it and answers 403 `forbidden` to a role without it. Every route here is behind
/// `StaffAuthMiddleware`: only staff tokens work, buyers' tokens answer 401.
struct AdminRoutes {
    let group: RouteGroup

    init(_ api: RouteGroup, staff: StaffService) {
        group = api.group("", middleware: [StaffAuthMiddleware(staff: staff)])
    }

    /// `bulkhead`: where the route always runs (see `Routes.add`).
    @discardableResult
    func on(_ method: HTTPMethod, _ pattern: String, on bulkhead: BulkheadName? = nil, use handler: @escaping Responder) -> AdminRoutes {
        guard let permission = AdminPermissions.permission(method, pattern) else {
            preconditionFailure("\(method.rawValue) \(pattern) is not in AdminPermissions.table")
        }
        _ = group.on(method, pattern, on: bulkhead) { request, context in
            let staff = try context.staff()
            if let permission, !staff.may(permission) { throw StaffError.forbidden }
            return try handler(request, context)
        }
        return self
    }

    @discardableResult func get(_ pattern: String, use handler: @escaping Responder) -> AdminRoutes { on(.get, pattern, use: handler) }
    @discardableResult func post(_ pattern: String, on bulkhead: BulkheadName? = nil, use handler: @escaping Responder) -> AdminRoutes {
        on(.post, pattern, on: bulkhead, use: handler)
    }
    @discardableResult func patch(_ pattern: String, use handler: @escaping Responder) -> AdminRoutes { on(.patch, pattern, use: handler) }
    @discardableResult func put(_ pattern: String, use handler: @escaping Responder) -> AdminRoutes { on(.put, pattern, use: handler) }
    @discardableResult func delete(_ pattern: String, use handler: @escaping Responder) -> AdminRoutes { on(.delete, pattern, use: handler) }
}

/// Requires `Authorization: Bearer <staff token>` and puts the staff member in the context.
struct StaffAuthMiddleware: Middleware {
    let staff: StaffService

    func respond(to request: Request, context: Context, next: Responder) throws -> Response {
        guard let token = AuthMiddleware.bearerToken(request) else { throw AccountError.unauthorized }
        var context = context
        context[SignedInStaff.self] = try staff.authenticate(token: token)
        return try next(request, context)
    }
}

/// The signed-in staff member, put in the context by `StaffAuthMiddleware`.
enum SignedInStaff: ContextKey {
    typealias Value = StaffPrincipal
}

extension Context {
    /// The signed-in staff member; admin routes always have one.
    func staff() throws -> StaffPrincipal {
        guard let staff = self[SignedInStaff.self] else { throw AccountError.unauthorized }
        return staff
    }

    /// Who makes this admin write, as the audit log records it.
    func staffActor() throws -> StaffActor {
        .staff(try staff(), requestID: requestID)
    }
}
