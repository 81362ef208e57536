import HTTP
import ShopCore

/// Buyers for staff: find them, ban and unban (`GET /admin/users`, `POST /admin/users/{id}/ban|unban`).
struct AdminUserController {
    let buyers: BuyerAdministration

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/users", use: list)
            .post("/admin/users/:id/ban", use: ban)
            .post("/admin/users/:id/unban", use: unban)
    }

    /// A page of buyers, newest first, whose phone or nickname holds `q`; phones whole.
    func list(_ request: Request, _ context: Context) throws -> Response {
        let page = try buyers.buyers(matching: request.query["q"], page: try request.pageRequest())
        return try .json(PageResponse(page, AdminUserResponse.init))
    }

    /// Bans: the buyer's tokens are revoked in the same transaction; banning again is harmless.
    func ban(_ request: Request, _ context: Context) throws -> Response {
        let id = UserID(try request.idParameter())
        let body = try request.decode(BanRequest.self)
        return try .json(AdminUserResponse(buyers.ban(id, reason: body.reason, by: try context.staffActor())))
    }

    func unban(_ request: Request, _ context: Context) throws -> Response {
        try .json(AdminUserResponse(buyers.unban(UserID(try request.idParameter()), by: try context.staffActor())))
    }
}
