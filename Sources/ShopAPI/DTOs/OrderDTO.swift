import Foundation
import ShopCore

/// `Order` on the wire; times not reached yet and a missing shipment are explicit nulls.
struct OrderResponse: Codable {
    struct Item: Codable {
        let skuID: SKUID
        let title: String
        let skuName: String
        let priceCents: Int64
        let quantity: Int
    }

    struct ShipmentBody: Codable {
        let carrier: String
        let trackingNumber: String
    }

    let id: OrderID
    let number: String
    let status: OrderStatus
    let items: [Item]
    let totalCents: Int64
    let deliveryFeeCents: Int64
    let discountCents: Int64
    @ExplicitNull var coupon: CouponBody?
    let address: PostalAddressBody
    let note: String
    let createdAt: Date
    let payDeadline: Date
    @ExplicitNull var paidAt: Date?
    @ExplicitNull var shippedAt: Date?
    @ExplicitNull var deliveredAt: Date?
    /// The shop's photo of the flowers at the door (a `/media` path), once delivered with one.
    @ExplicitNull var deliveryPhotoURL: String?
    @ExplicitNull var completedAt: Date?
    @ExplicitNull var cancelledAt: Date?
    @ExplicitNull var shipment: ShipmentBody?
    @ExplicitNull var refund: RefundBody?
    /// `YYYY-MM-DD` in the shop's time zone; null only for orders placed before delivery days existed.
    @ExplicitNull var deliveryDate: String?
    @ExplicitNull var deliverySlot: DeliverySlot?
    @ExplicitNull var cardMessage: String?
    @ExplicitNull var cardSignature: String?
    /// The recipient's page (`/track/{token}`), absolute under the shop's origin; null for orders
    /// placed before tracking pages.
    @ExplicitNull var trackingURL: String?
    let anonymousSender: Bool
    let notifyRecipient: Bool
    /// What the providers confirmed going back to the buyer, in all.
    let refundedCents: Int64
    /// The latest after-sale request about the order.
    @ExplicitNull var afterSale: AfterSaleResponse?
    /// The order this one redelivers (an approved after-sale request), at 0 cents.
    @ExplicitNull var redeliveryOf: OrderLinkBody?

    struct RefundBody: Codable {
        let status: RefundStatus
        let amountCents: Int64
        @ExplicitNull var refundedAt: Date?
    }

    /// `origin`: the shop's origin tracking links start with (`ShopOrigin`); nil: a path alone.
    init(_ o: Order, origin: String? = nil) {
        id = o.id
        number = o.number
        status = o.status
        items = o.items.map { Item(skuID: $0.skuID, title: $0.title, skuName: $0.skuName, priceCents: $0.priceCents,
                                   quantity: $0.quantity) }
        totalCents = o.totalCents
        deliveryFeeCents = o.deliveryFeeCents
        discountCents = o.discountCents
        coupon = o.coupon.map { CouponBody(code: $0.code, description: $0.description) }
        let a = o.address
        address = PostalAddressBody(recipient: a.recipient, phone: a.phone, province: a.province, city: a.city,
                                    district: a.district, detail: a.detail, postalCode: a.postalCode)
        note = o.note
        createdAt = o.createdAt
        payDeadline = o.payDeadline
        paidAt = o.paidAt
        shippedAt = o.shippedAt
        deliveredAt = o.deliveredAt
        deliveryPhotoURL = o.deliveryPhotoURL
        completedAt = o.completedAt
        cancelledAt = o.cancelledAt
        shipment = o.shipment.map { ShipmentBody(carrier: $0.carrier, trackingNumber: $0.trackingNumber) }
        refund = o.refund.map { RefundBody(status: $0.status, amountCents: $0.amountCents, refundedAt: $0.refundedAt) }
        deliveryDate = o.delivery.date?.description
        deliverySlot = o.delivery.slot
        cardMessage = o.delivery.cardMessage
        cardSignature = o.delivery.cardSignature
        trackingURL = o.trackingToken.map { (origin ?? "") + TrackingToken.path($0) }
        anonymousSender = o.anonymousSender
        notifyRecipient = o.notifyRecipient
        refundedCents = o.refundedCents
        afterSale = o.afterSale.map(AfterSaleResponse.init)
        redeliveryOf = o.redeliveryOf.map(OrderLinkBody.init)
    }
}
