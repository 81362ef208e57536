import Bulkheads
import HTTP
import ShopCore

/// `/orders`: checkout with an idempotency key, the order list, detail, cancel and confirm receipt.
struct OrderController {
    let orders: OrderService
    let payments: PaymentService
    let logger: Logger
    let metrics: ShopMetrics
    /// Where a cancelled paid order's refund is sent to its provider (the payments bulkhead).
    let refunds: Bulkhead?
    /// The origin an order's `tracking_url` starts with.
    var origin: ShopOrigin? = nil

    func register(_ signedIn: RouteGroup) {
        signedIn.post("/orders", on: .writes, use: checkout)
            .get("/orders", use: list)
            .get("/orders/:id", use: show)
            .post("/orders/:id/cancel", on: .writes, use: cancel)
            .post("/orders/:id/confirm-receipt", on: .writes, use: confirmReceipt)
    }

    /// 201 with the new order, or 200 with the same order when the key and body repeat.
    func checkout(_ request: Request, _ context: Context) throws -> Response {
        let user = try context.user()
        let key = try IdempotencyKey(request.headers["Idempotency-Key"])
        // `CheckoutRequest` is the body: prices, status and owner never come from the client.
        let result = try orders.checkout(request.decode(CheckoutRequest.self), idempotencyKey: key, for: user,
                                         clientIP: request.clientAddress)
        if !result.replayed { metrics.orderPlaced() }
        return try .json(OrderResponse(result.order, origin: origin?.origin(for: request)), status: result.replayed ? .ok : .created)
    }

    /// One's orders, newest first, optionally of some statuses (`status=refunding,refunded`).
    func list(_ request: Request, _ context: Context) throws -> Response {
        let page = try orders.orders(for: try context.user(), statuses: try request.queryEnumList("status", OrderStatus.self),
                                     page: try request.pageRequest())
        let base = origin?.origin(for: request)
        return try .json(PageResponse(page) { OrderResponse($0, origin: base) })
    }

    func show(_ request: Request, _ context: Context) throws -> Response {
        try .json(OrderResponse(orders.order(OrderID(try request.idParameter()), for: try context.user()),
                                origin: origin?.origin(for: request)))
    }

    /// Cancels an order that has not shipped; its stock goes back. A paid one answers `refunding`
    /// at once: its refund is sent to the provider off the request, on the payments bulkhead when
    /// it has room, else by the background sweeper.
    func cancel(_ request: Request, _ context: Context) throws -> Response {
        let user = try context.user()
        let cancelled = try orders.cancel(OrderID(try request.idParameter()), for: user)
        if cancelled.status == .refunding, let refunds {
            _ = refunds.submit { [payments, logger] in
                do {
                    try payments.processRefunds(order: cancelled.id)
                } catch {
                    logger.warning("refund request after cancel failed", ["order": cancelled.number, "error": String(describing: error)])
                }
            }
        }
        return try .json(OrderResponse(cancelled, origin: origin?.origin(for: request)))
    }

    /// Marks a shipped order as received.
    func confirmReceipt(_ request: Request, _ context: Context) throws -> Response {
        try .json(OrderResponse(orders.confirmReceipt(OrderID(try request.idParameter()), for: try context.user()),
                                origin: origin?.origin(for: request)))
    }
}
