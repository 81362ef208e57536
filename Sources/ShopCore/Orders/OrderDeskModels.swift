import Foundation

/// What the operators' desk searches orders by; every part optional, all of them together.
public struct OrderFilter: Sendable, Equatable {
    public var status: OrderStatus?
    public var deliveryDate: CalendarDay?
    /// Part of the number, of the buyer's or the recipient's phone, or of the recipient's name.
    public var query: String?
    /// Placed on or after this day and on or before `to` (days in `app.timezone`).
    public var from: CalendarDay?
    public var to: CalendarDay?

    public static let maxQueryLength = 50

    public init(status: OrderStatus? = nil, deliveryDate: CalendarDay? = nil, query: String? = nil, from: CalendarDay? = nil,
                to: CalendarDay? = nil) {
        self.status = status
        self.deliveryDate = deliveryDate
        self.query = query
        self.from = from
        self.to = to
    }
}

/// One payment attempt of an order, as the desk shows it.
public struct OrderPayment: Sendable, Equatable {
    public let id: PaymentID
    public let provider: PaymentProvider
    public let amountCents: Int64
    public let status: PaymentStatus
    public let createdAt: Date
}

/// An operator's note on an order: who wrote it (a staff username or `cli:<user>`) and when.
public struct OrderNote: Sendable, Equatable {
    public let id: Int64
    public let author: String
    public let text: String
    public let createdAt: Date
}

/// An order as the desk shows it: the order, the buyer's phone whole, every payment attempt, every
/// refund (a cancel's and the shop's parts) and the operators' notes, oldest first.
public struct OrderDetail: Sendable, Equatable {
    public let order: Order
    public let buyerPhone: String
    public let payments: [OrderPayment]
    public let refunds: [Refund]
    public let notes: [OrderNote]
    /// Every after-sale request about the order, newest first.
    public let afterSales: [AfterSale]
}

/// What a desk write changed, as the audit log keeps it before and after: the status and the
/// fields that write touches.
struct OrderAuditState: Encodable {
    let status: OrderStatus
    var carrier: String?
    var trackingNumber: String?
    var deliveryPhotoURL: String?
    var cancelReason: String?
    var refundedCents: Int64?

    init(_ order: Order, refundedCents: Int64? = nil) {
        status = order.status
        carrier = order.shipment?.carrier
        trackingNumber = order.shipment?.trackingNumber
        deliveryPhotoURL = order.deliveryPhotoURL
        self.refundedCents = refundedCents
    }
}
