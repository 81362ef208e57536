import Bulkheads
import Foundation
import HTTP
import ShopCore

/// `/admin/orders…`: the desk's order search and detail, and the shop's writes on an order (ship,
/// deliver, cancel, refund, note), each audited in its own transaction by `OrderService`.
struct AdminOrderController {
    let orders: OrderService
    let payments: PaymentService
    let logger: Logger
    /// Where a refund is sent to its provider off the request (the payments bulkhead); the
    /// background sweeper sends it when the bulkhead is full or absent.
    let refunds: Bulkhead?
    /// The origin the detail's `tracking_url` starts with.
    var origin: ShopOrigin? = nil

    struct ShipRequest: Decodable {
        let carrier: String?
        let trackingNumber: String?
    }

    struct DeliverRequest: Decodable {
        let photoURL: String?
    }

    struct CancelRequest: Decodable {
        let reason: String
    }

    struct RefundRequest: Decodable {
        let amountCents: Int64
        let reason: String
    }

    struct NoteRequest: Decodable {
        let text: String
    }

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/orders", use: list)
            .get("/admin/orders/:number", use: show)
            .post("/admin/orders/:number/ship", use: ship)
            .post("/admin/orders/:number/deliver", use: deliver)
            .post("/admin/orders/:number/cancel", use: cancel)
            .post("/admin/orders/:number/refund", use: refund)
            .post("/admin/orders/:number/notes", use: addNote)
    }

    /// `?status=&delivery_date=&q=&from=&to=&page=&per_page=`: every buyer's orders, newest first.
    func list(_ request: Request, _ context: Context) throws -> Response {
        let filter = OrderFilter(status: try request.queryEnum("status", OrderStatus.self),
                                 deliveryDate: try request.queryDay("delivery_date"), query: try request.queryText("q", max: OrderFilter.maxQueryLength),
                                 from: try request.queryDay("from"), to: try request.queryDay("to"))
        let base = origin?.origin(for: request)
        return try .json(PageResponse(try orders.search(filter, page: try request.pageRequest())) { OrderResponse($0, origin: base) })
    }

    /// The order with its payments, refunds and notes, and the buyer's phone whole.
    func show(_ request: Request, _ context: Context) throws -> Response {
        try .json(AdminOrderDetailResponse(try orders.detail(number: try request.parameter("number")),
                                           origin: origin?.origin(for: request)))
    }

    /// A paid order shipped, with `carrier` and `tracking_number` or neither (the shop's own courier).
    func ship(_ request: Request, _ context: Context) throws -> Response {
        let body = request.body.isEmpty ? ShipRequest(carrier: nil, trackingNumber: nil) : try request.decode(ShipRequest.self)
        return try .json(OrderResponse(try orders.ship(number: try request.parameter("number"), carrier: body.carrier,
                                                       trackingNumber: body.trackingNumber, by: try context.staffActor()),
                                       origin: origin?.origin(for: request)))
    }

    /// A shipped order delivered, with the photo at the door (a `/media` path) if any.
    func deliver(_ request: Request, _ context: Context) throws -> Response {
        let body = request.body.isEmpty ? DeliverRequest(photoURL: nil) : try request.decode(DeliverRequest.self)
        return try .json(OrderResponse(try orders.deliver(number: try request.parameter("number"), photoURL: body.photoURL,
                                                          by: try context.staffActor()),
                                       origin: origin?.origin(for: request)))
    }

    /// Unpaid → cancelled; paid and not shipped → refunding, its refund sent as a buyer's cancel's is.
    func cancel(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(CancelRequest.self)
        let cancelled = try orders.cancel(number: try request.parameter("number"), reason: body.reason, by: try context.staffActor())
        if cancelled.status == .refunding { send(refundsOf: cancelled.id, number: cancelled.number) }
        return try .json(OrderResponse(cancelled, origin: origin?.origin(for: request)))
    }

    /// 201 with the refund opened (pending); it goes to the provider right after the answer.
    func refund(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(RefundRequest.self)
        let refund = try orders.refund(number: try request.parameter("number"), amountCents: body.amountCents, reason: body.reason,
                                       by: try context.staffActor())
        send(refundsOf: refund.orderID, number: refund.orderNumber)
        return try .json(AdminRefundResponse(refund), status: .created)
    }

    /// 201 with the note.
    func addNote(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(NoteRequest.self)
        let note = try orders.addNote(number: try request.parameter("number"), text: body.text, by: try context.staffActor())
        return try .json(AdminOrderNoteResponse(note), status: .created)
    }

    private func send(refundsOf order: OrderID, number: String) {
        guard let refunds else { return }
        _ = refunds.submit { [payments, logger] in
            do {
                try payments.processRefunds(order: order)
            } catch {
                logger.warning("refund request from the desk failed", ["order": number, "error": String(describing: error)])
            }
        }
    }
}
