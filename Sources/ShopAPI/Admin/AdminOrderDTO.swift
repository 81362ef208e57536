import Foundation
import ShopCore

/// `GET /admin/orders/{number}`: the `Order` fields, and beside them the buyer's phone (whole: staff
/// only), every payment attempt, every refund and the operators' notes, oldest first.
struct AdminOrderDetailResponse: Codable {
    struct Extras: Codable {
        let buyerPhone: String
        let payments: [PaymentBody]
        let refunds: [AdminRefundResponse]
        let notes: [AdminOrderNoteResponse]
        /// Every after-sale request about the order, newest first.
        let afterSales: [AdminAfterSaleResponse]
    }

    struct PaymentBody: Codable {
        let id: PaymentID
        let provider: PaymentProvider
        let amountCents: Int64
        let status: PaymentStatus
        let createdAt: Date
    }

    let body: Flat<OrderResponse, Extras>

    init(_ detail: OrderDetail, origin: String? = nil) {
        body = Flat(OrderResponse(detail.order, origin: origin), Extras(
            buyerPhone: detail.buyerPhone,
            payments: detail.payments.map { PaymentBody(id: $0.id, provider: $0.provider, amountCents: $0.amountCents, status: $0.status,
                                                        createdAt: $0.createdAt) },
            refunds: detail.refunds.map(AdminRefundResponse.init), notes: detail.notes.map(AdminOrderNoteResponse.init),
            afterSales: detail.afterSales.map(AdminAfterSaleResponse.init)))
    }

    func encode(to encoder: any Encoder) throws { try body.encode(to: encoder) }

    /// Reads the flat object back (tests decode the detail), as `encode(to:)` writes it.
    init(from decoder: any Decoder) throws { body = try Flat(from: decoder) }
}

/// One refund as the desk shows it: its idempotent number, amount, where it is, and why.
struct AdminRefundResponse: Codable {
    let number: String
    let orderNumber: String
    let provider: PaymentProvider
    let amountCents: Int64
    let status: RefundStatus
    @ExplicitNull var reason: String?
    let attempts: Int
    @ExplicitNull var lastError: String?
    let createdAt: Date
    @ExplicitNull var refundedAt: Date?

    init(_ refund: Refund) {
        number = refund.number
        orderNumber = refund.orderNumber
        provider = refund.provider
        amountCents = refund.amountCents
        status = refund.status
        reason = refund.reason
        attempts = refund.attempts
        lastError = refund.lastError
        createdAt = refund.createdAt
        refundedAt = refund.refundedAt
    }
}

/// An operator's note: who wrote it (a staff username or `cli:<user>`), what, when.
struct AdminOrderNoteResponse: Codable {
    let id: Int64
    let author: String
    let text: String
    let createdAt: Date

    init(_ note: OrderNote) {
        id = note.id
        author = note.author
        text = note.text
        createdAt = note.createdAt
    }
}
