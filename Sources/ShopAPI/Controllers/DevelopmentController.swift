import HTTP
import ShopCore

/// Routes that exist only when `app.env` is `development`: never registered in production, and
/// answering only requests straight from this machine (`LoopbackOnlyMiddleware` on `prefix`).
struct DevelopmentController {
    let payments: PaymentService

    /// Where every development-only route lives.
    static let prefix = "/api/v1/dev"

    struct SimulateRequest: Decodable {
        let status: String?
    }

    struct SimulateResponse: Codable {
        let orderStatus: OrderStatus
    }

    func register(_ signedIn: RouteGroup) {
        signedIn.post("/dev/orders/:id/simulate-payment", use: simulatePayment)
    }

    /// Plays mockpay for one's own order: a signed notification goes through the real webhook path.
    func simulatePayment(_ request: Request, _ context: Context) throws -> Response {
        let order = OrderID(try request.idParameter())
        let status = request.body.isEmpty ? nil : try request.decode(SimulateRequest.self).status
        guard status == nil || status == "succeeded" || status == "failed" else {
            throw ValidationError.oneOf("status", ["succeeded", "failed"])
        }
        let result = try payments.simulateMockpay(order, succeeded: status != "failed", for: try context.user())
        return try .json(SimulateResponse(orderStatus: result))
    }
}
