import Foundation
import SQL

extension Entity {
    public enum AfterSale {}
}

public typealias AfterSaleID = ID<Entity.AfterSale>

/// What a buyer asks for after delivery: money back, or the flowers again.
public enum AfterSaleKind: String, Sendable, Codable, CaseIterable, SQLCodable {
    case refund
    case redeliver
}

/// Where an after-sale request is: `requested` (waiting for the desk), `approved` (a refund on its
/// way to the provider), then `refunded` once the provider confirmed it; `redelivered` (a new order
/// made); `rejected` (with the desk's note). `requested` and `approved` are open: one per order.
public enum AfterSaleStatus: String, Sendable, Codable, CaseIterable, SQLCodable {
    case requested, approved, rejected, refunded, redelivered

    /// Still waiting for the desk or for the provider: another request about the order must wait.
    public var isOpen: Bool { self == .requested || self == .approved }
}

/// An order named by id and number, as a link from one order to another.
public struct OrderLink: Sendable, Equatable {
    public let id: OrderID
    public let number: String
}

/// One after-sale request and the desk's decision on it.
public struct AfterSale: Sendable, Equatable {
    public let id: AfterSaleID
    public let orderID: OrderID
    public let orderNumber: String
    public let userID: UserID
    public let kind: AfterSaleKind
    public let status: AfterSaleStatus
    public let reason: String
    /// The shop's own `/media` pictures the buyer uploaded, in their order.
    public let photoURLs: [String]
    /// Refunds only: what the buyer asked for, then what the desk approved.
    public let amountCents: Int64?
    public let createdAt: Date
    public let decidedAt: Date?
    public let decisionNote: String?
    /// Who decided (a staff username or `cli:<user>`), for the desk.
    public let decidedBy: String?
    /// The refund an approved refund request opened (its idempotent number).
    public let refundNumber: String?
    /// The order an approved redelivery made.
    public let redeliveryOrder: OrderLink?
}

/// A buyer's after-sale request as the API takes it: `{"kind", "reason", "photo_urls"?, "amount_cents"?}`.
public struct AfterSaleRequest: Sendable, Equatable, Decodable {
    public let kind: AfterSaleKind
    public let reason: String
    public let photoURLs: [String]?
    /// Refunds only; absent: all that is left of the payment.
    public let amountCents: Int64?

    public init(kind: AfterSaleKind, reason: String, photoURLs: [String]? = nil, amountCents: Int64? = nil) {
        self.kind = kind
        self.reason = reason
        self.photoURLs = photoURLs
        self.amountCents = amountCents
    }
}

/// An after-sale request as the audit log keeps it before and after a decision.
struct AfterSaleAuditState: Encodable {
    let orderNumber: String
    let kind: AfterSaleKind
    let status: AfterSaleStatus
    let amountCents: Int64?
    let decisionNote: String?
    let refundNumber: String?
    let redeliveryOrder: String?

    init(_ afterSale: AfterSale) {
        orderNumber = afterSale.orderNumber
        kind = afterSale.kind
        status = afterSale.status
        amountCents = afterSale.amountCents
        decisionNote = afterSale.decisionNote
        refundNumber = afterSale.refundNumber
        redeliveryOrder = afterSale.redeliveryOrder?.number
    }
}
