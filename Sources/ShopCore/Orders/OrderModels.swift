import Foundation

/// Where an order is in its life: `pending_payment → paid → shipped → (delivered →) completed`,
/// `pending_payment → cancelled`, or, cancelled after payment and before shipping,
/// `paid → refunding → refunded`. The buyer's confirmation and auto-complete complete a shipped
/// order whether or not the shop recorded its delivery.
public enum OrderStatus: String, Sendable, Codable, CaseIterable {
    case pendingPayment = "pending_payment"
    case paid, shipped, delivered, completed, cancelled, refunding, refunded

    /// The statuses an order may move to from this one: the whole state machine, in one place.
    public var next: Set<OrderStatus> {
        switch self {
        case .pendingPayment: [.paid, .cancelled]
        case .paid: [.shipped, .refunding]
        case .shipped: [.delivered, .completed]
        case .delivered: [.completed]
        case .refunding: [.refunded]
        case .completed, .cancelled, .refunded: []
        }
    }

    /// Whether an order in this status may move to `status`.
    public func canMove(to status: OrderStatus) -> Bool { next.contains(status) }

    /// The statuses an order moves to this one from, in declaration order; empty for
    /// `pending_payment`, where orders start.
    public var previous: [OrderStatus] {
        Self.allCases.filter { $0.canMove(to: self) }
    }

    /// Paid, and the money not sent back by a cancel: what a shop refund may take part of.
    public var isPaidAndKept: Bool { [.paid, .shipped, .delivered, .completed].contains(self) }
}

/// The address as it was at checkout.
public struct AddressSnapshot: Sendable, Equatable {
    public let recipient: String
    public let phone: String
    public let province: String
    public let city: String
    public let district: String
    public let detail: String
    public let postalCode: String?
}

/// One line of an order, priced at checkout.
public struct OrderItem: Sendable, Equatable {
    public let skuID: SKUID
    public let title: String
    public let skuName: String
    public let priceCents: Int64
    public let quantity: Int
}

/// A carrier and tracking number, once shipped.
public struct Shipment: Sendable, Equatable {
    public let carrier: String
    public let trackingNumber: String
}

/// An order as its owner sees it.
public struct Order: Sendable, Equatable {
    public let id: OrderID
    public let number: String
    public let userID: UserID
    public let status: OrderStatus
    public let items: [OrderItem]
    /// The lines' sum less `discountCents`, plus `deliveryFeeCents`.
    public let totalCents: Int64
    /// What delivery costs (a peak day's fee): part of the total, never discounted by a coupon.
    public let deliveryFeeCents: Int64
    /// What the coupon took off at checkout; 0 without one.
    public let discountCents: Int64
    /// The coupon applied at checkout, as it was then.
    public let coupon: OrderCoupon?
    public let address: AddressSnapshot
    public let note: String
    public let createdAt: Date
    public let payDeadline: Date
    public let paidAt: Date?
    public let shippedAt: Date?
    /// When the shop recorded the flowers delivered, and its photo of them (a shop `/media` URL).
    public let deliveredAt: Date?
    public let deliveryPhotoURL: String?
    public let completedAt: Date?
    public let cancelledAt: Date?
    public let shipment: Shipment?
    /// The money going back, once a paid order was cancelled: nil otherwise.
    public let refund: OrderRefund?
    /// The delivery day, slot and greeting card.
    public let delivery: OrderDelivery
    /// The recipient's `/track/{token}` page's token; nil for orders placed before tracking pages.
    public var trackingToken: String? = nil
    /// The recipient's page hides the buyer's name and phone.
    public var anonymousSender = false
    /// Whether the recipient is told when the flowers are on their way and delivered.
    public var notifyRecipient = true
    /// What the providers confirmed going back to the buyer, in all (a cancel's, the desk's, after-sale's).
    public internal(set) var refundedCents: Int64 = 0
    /// The latest after-sale request about this order.
    public internal(set) var afterSale: AfterSale? = nil
    /// The order this one redelivers (an approved after-sale request), at 0 cents.
    public internal(set) var redeliveryOf: OrderLink? = nil
}

/// A coupon as an order keeps it.
public struct OrderCoupon: Sendable, Equatable {
    public let code: String
    public let description: String
}

/// An order's refund as its owner sees it.
public struct OrderRefund: Sendable, Equatable {
    public let status: RefundStatus
    public let amountCents: Int64
    public let refundedAt: Date?
}

/// What checkout was asked for: the selected cart lines, or "buy now" items.
public struct CheckoutRequest: Sendable, Equatable {
    public struct Item: Sendable, Equatable, Decodable {
        public let skuID: SKUID
        public let quantity: Int

        public init(skuID: SKUID, quantity: Int) {
            self.skuID = skuID
            self.quantity = quantity
        }
    }

    public let addressID: AddressID
    public let note: String?
    /// nil: check out the selected cart lines.
    public let items: [Item]?
    /// The day, slot and card asked for; empty: the earliest day, no card.
    public let delivery: DeliveryRequest

    /// A coupon code to apply (any case); nil: none.
    public let couponCode: String?
    /// The recipient never sees the buyer's name or phone.
    public var anonymousSender = false
    /// Whether the recipient gets the shipped and delivered notices.
    public var notifyRecipient = true

    public init(addressID: AddressID, note: String? = nil, items: [Item]? = nil, couponCode: String? = nil,
                delivery: DeliveryRequest = DeliveryRequest(), anonymousSender: Bool = false, notifyRecipient: Bool = true) {
        self.addressID = addressID
        self.note = note
        self.items = items
        self.couponCode = couponCode
        self.delivery = delivery
        self.anonymousSender = anonymousSender
        self.notifyRecipient = notifyRecipient
    }

    /// A stable fingerprint of what was asked, to tell a replay from a reuse of the key.
    var fingerprint: String {
        let lines = (items ?? []).map { "\($0.skuID.rawValue)x\($0.quantity)" }.joined(separator: ",")
        // Each later field only when asked for, so keys remembered before coupons and delivery days
        // existed still match their replays.
        var fingerprint = "address=\(addressID.rawValue);note=\(note ?? "");mode=\(items == nil ? "cart" : "items");items=\(lines)"
            + (couponCode.map { ";coupon=\($0)" } ?? "")
            + (anonymousSender ? ";anonymous" : "") + (notifyRecipient ? "" : ";quiet")
        guard !delivery.isEmpty else { return fingerprint }
        fingerprint += ";delivery=\(delivery.date?.description ?? "")|\(delivery.slot?.rawValue ?? "")"
            + ";card=\(delivery.cardMessage?.utf8.count ?? 0):\(delivery.cardMessage ?? "")|\(delivery.cardSignature ?? "")"
        return fingerprint
    }
}

/// The checkout body as the API takes it: `{"address_id", "note"?, "items"?, "coupon_code"?,
/// "delivery_date"?, "delivery_slot"?, "card_message"?, "card_signature"?, "anonymous_sender"?,
/// "notify_recipient"?}` (the decoder turns
/// snake_case into these keys). A well-formed body with a date or slot that is none throws
/// `ValidationError` naming the field, after every field has decoded.
extension CheckoutRequest: Decodable {
    enum CodingKeys: String, CodingKey {
        case addressID, note, items, couponCode, deliveryDate, deliverySlot, cardMessage, cardSignature
        case anonymousSender, notifyRecipient
    }

    public init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: CodingKeys.self)
        let addressID = try body.decode(AddressID.self, forKey: .addressID)
        let note = try body.decodeIfPresent(String.self, forKey: .note)
        let items = try body.decodeIfPresent([Item].self, forKey: .items)
        let couponCode = try body.decodeIfPresent(String.self, forKey: .couponCode)
        let dateText = try body.decodeIfPresent(String.self, forKey: .deliveryDate)
        let slotText = try body.decodeIfPresent(String.self, forKey: .deliverySlot)
        let cardMessage = try body.decodeIfPresent(String.self, forKey: .cardMessage)
        let cardSignature = try body.decodeIfPresent(String.self, forKey: .cardSignature)
        let anonymousSender = try body.decodeIfPresent(Bool.self, forKey: .anonymousSender) ?? false
        let notifyRecipient = try body.decodeIfPresent(Bool.self, forKey: .notifyRecipient) ?? true
        self.init(addressID: addressID, note: note, items: items, couponCode: couponCode,
                  delivery: try DeliveryRequest(dateText: dateText, slotText: slotText, cardMessage: cardMessage,
                                                cardSignature: cardSignature),
                  anonymousSender: anonymousSender, notifyRecipient: notifyRecipient)
    }
}

/// The order checkout made, and whether it is a replay of an earlier request.
public struct Checkout: Sendable {
    public let order: Order
    public let replayed: Bool
}
