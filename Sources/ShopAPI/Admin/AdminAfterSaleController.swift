import Bulkheads
import HTTP
import ShopCore

/// `/admin/after-sales…`: the desk's queue of after-sale requests and its decisions, each audited
/// in its own transaction by `AfterSaleService`.
struct AdminAfterSaleController {
    let afterSales: AfterSaleService
    let payments: PaymentService
    let logger: Logger
    /// Where an approved refund is sent to its provider off the request (the payments bulkhead);
    /// the background sweeper sends it when the bulkhead is full or absent.
    let refunds: Bulkhead?

    struct ApproveRequest: Decodable {
        let note: String?
        let amountCents: Int64?
    }

    struct RejectRequest: Decodable {
        let note: String
    }

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/after-sales", use: list)
            .post("/admin/after-sales/:id/approve", use: approve)
            .post("/admin/after-sales/:id/reject", use: reject)
    }

    /// `?status=&page=&per_page=`: every buyer's requests, newest first, with their order numbers.
    func list(_ request: Request, _ context: Context) throws -> Response {
        let page = try afterSales.queue(status: try request.queryEnum("status", AfterSaleStatus.self), page: try request.pageRequest())
        return try .json(PageResponse(page, AdminAfterSaleResponse.init))
    }

    /// A refund request approved opens its refund, sent to the provider right after the answer
    /// (`approved`, then `refunded` once confirmed); a redelivery answers `redelivered` with its order.
    func approve(_ request: Request, _ context: Context) throws -> Response {
        let body = request.body.isEmpty ? ApproveRequest(note: nil, amountCents: nil) : try request.decode(ApproveRequest.self)
        let approved = try afterSales.approve(AfterSaleID(try request.idParameter()), note: body.note, amountCents: body.amountCents,
                                              by: try context.staffActor())
        if approved.refundNumber != nil { send(refundsOf: approved.orderID, number: approved.orderNumber) }
        return try .json(AdminAfterSaleResponse(approved))
    }

    /// Rejected with the desk's note, which the buyer sees.
    func reject(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(RejectRequest.self)
        let rejected = try afterSales.reject(AfterSaleID(try request.idParameter()), note: body.note, by: try context.staffActor())
        return try .json(AdminAfterSaleResponse(rejected))
    }

    private func send(refundsOf order: OrderID, number: String) {
        guard let refunds else { return }
        _ = refunds.submit { [payments, logger] in
            do {
                try payments.processRefunds(order: order)
            } catch {
                logger.warning("refund request for an after-sale failed", ["order": number, "error": String(describing: error)])
            }
        }
    }
}
