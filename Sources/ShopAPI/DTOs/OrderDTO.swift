import Foundation
import ShopCore

/// `Order` on the wire; times not reached yet and a missing shipment are explicit nulls.
struct OrderResponse: Encodable {
    struct Item: Encodable {
        let skuID: SKUID
        let title: String
        let skuName: String
        let priceCents: Int64
        let quantity: Int
    }

    struct ShipmentBody: Encodable {
        let carrier: String
        let trackingNumber: String
    }

    let order: Order

    init(_ order: Order) { self.order = order }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let o = order
        try c.encode(o.id, forKey: .id)
        try c.encode(o.number, forKey: .number)
        try c.encode(o.status, forKey: .status)
        try c.encode(o.items.map { Item(skuID: $0.skuID, title: $0.title, skuName: $0.skuName, priceCents: $0.priceCents,
                                        quantity: $0.quantity) }, forKey: .items)
        try c.encode(o.totalCents, forKey: .totalCents)
        let a = o.address
        try c.encode(PostalAddressBody(recipient: a.recipient, phone: a.phone, province: a.province, city: a.city,
                                 district: a.district, detail: a.detail, postalCode: a.postalCode), forKey: .address)
        try c.encode(o.note, forKey: .note)
        try c.encode(o.createdAt, forKey: .createdAt)
        try c.encode(o.payDeadline, forKey: .payDeadline)
        try c.encode(o.paidAt, forKey: .paidAt)
        try c.encode(o.shippedAt, forKey: .shippedAt)
        try c.encode(o.completedAt, forKey: .completedAt)
        try c.encode(o.cancelledAt, forKey: .cancelledAt)
        try c.encode(o.shipment.map { ShipmentBody(carrier: $0.carrier, trackingNumber: $0.trackingNumber) }, forKey: .shipment)
    }

    private enum CodingKeys: String, CodingKey {
        case id, number, status, items, totalCents, address, note, createdAt, payDeadline, paidAt, shippedAt, completedAt,
             cancelledAt, shipment
    }
}
