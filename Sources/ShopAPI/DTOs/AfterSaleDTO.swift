import Foundation
import ShopCore

/// `AfterSale` on the wire: a buyer's after-sale request and the desk's decision; what is not
/// decided yet (and a redelivery's amount) is an explicit null.
struct AfterSaleResponse: Codable {
    let id: AfterSaleID
    let orderID: OrderID
    let orderNumber: String
    let kind: AfterSaleKind
    let status: AfterSaleStatus
    let reason: String
    let photoURLs: [String]
    @ExplicitNull var amountCents: Int64?
    let createdAt: Date
    @ExplicitNull var decidedAt: Date?
    @ExplicitNull var decisionNote: String?
    /// The order an approved redelivery made.
    @ExplicitNull var redeliveryOrder: OrderLinkBody?

    init(_ a: AfterSale) {
        id = a.id
        orderID = a.orderID
        orderNumber = a.orderNumber
        kind = a.kind
        status = a.status
        reason = a.reason
        photoURLs = a.photoURLs
        amountCents = a.amountCents
        createdAt = a.createdAt
        decidedAt = a.decidedAt
        decisionNote = a.decisionNote
        redeliveryOrder = a.redeliveryOrder.map(OrderLinkBody.init)
    }
}

/// One order named from another: `{"id", "number"}`.
struct OrderLinkBody: Codable {
    let id: OrderID
    let number: String

    init(_ link: OrderLink) {
        id = link.id
        number = link.number
    }
}

/// The desk's view of a request: the `AfterSale` fields, who decided, and the refund it opened.
struct AdminAfterSaleResponse: Codable {
    struct Extras: Codable {
        @ExplicitNull var decidedBy: String?
        @ExplicitNull var refundNumber: String?
    }

    let body: Flat<AfterSaleResponse, Extras>

    init(_ afterSale: AfterSale) {
        body = Flat(AfterSaleResponse(afterSale), Extras(decidedBy: afterSale.decidedBy, refundNumber: afterSale.refundNumber))
    }

    func encode(to encoder: any Encoder) throws { try body.encode(to: encoder) }

    /// Reads the flat object back (tests decode it), as `encode(to:)` writes it.
    init(from decoder: any Decoder) throws { body = try Flat(from: decoder) }
}
