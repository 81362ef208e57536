import HTTP
import ShopCore

/// `/orders/{id}/after-sales`: a buyer's after-sale requests about their own order.
struct AfterSaleController {
    let afterSales: AfterSaleService

    func register(_ signedIn: RouteGroup) {
        signedIn.post("/orders/:id/after-sales", use: create)
            .get("/orders/:id/after-sales", use: list)
    }

    /// 201 with the request (`requested`); `AfterSaleRequest` is the body, so status, decision and
    /// owner never come from the client.
    func create(_ request: Request, _ context: Context) throws -> Response {
        let user = try context.user()
        let body = try request.decode(AfterSaleRequest.self)
        let created = try afterSales.request(body, order: OrderID(try request.idParameter()), for: user)
        return try .json(AfterSaleResponse(created), status: .created)
    }

    /// `{"items": [...]}`: the requests about one's own order, newest first.
    func list(_ request: Request, _ context: Context) throws -> Response {
        let items = try afterSales.afterSales(of: OrderID(try request.idParameter()), for: try context.user())
        return try .json(ItemsResponse(items: items.map(AfterSaleResponse.init)))
    }
}
