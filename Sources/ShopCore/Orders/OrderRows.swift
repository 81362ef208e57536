import SQL

// One row initializer per model, so each query that reads a model decodes it the same way.

extension Order {
    /// An order from a row of `OrderStore.columns`, with its lines and refund read beside it.
    init(row: Row, items: [OrderItem], refund: OrderRefund?) throws {
        let shipment: Shipment? = try row.decode("carrier", as: String?.self).flatMap { carrier in
            try row.decode("tracking_number", as: String?.self).map { Shipment(carrier: carrier, trackingNumber: $0) }
        }
        self.init(
            id: try row.decode("id"), number: try row.decode("number"), userID: try row.decode("user_id"),
            status: try row.decode("status"), items: items,
            totalCents: try row.decode("total_cents"), deliveryFeeCents: try row.decode("delivery_fee_cents"),
            discountCents: try row.decode("discount_cents"),
            coupon: try row.decode("coupon_code", as: String?.self).map {
                OrderCoupon(code: $0, description: try row.decode("coupon_description", as: String?.self) ?? "")
            },
            address: AddressSnapshot(recipient: try row.decode("ship_recipient"), phone: try row.decode("ship_phone"),
                                     province: try row.decode("ship_province"), city: try row.decode("ship_city"),
                                     district: try row.decode("ship_district"), detail: try row.decode("ship_detail"),
                                     postalCode: try row.decode("ship_postal_code")),
            note: try row.decode("note"),
            createdAt: try row.decode("created_at"), payDeadline: try row.decode("pay_deadline"),
            paidAt: try row.decode("paid_at"), shippedAt: try row.decode("shipped_at"),
            deliveredAt: try row.decode("delivered_at"), deliveryPhotoURL: try row.decode("delivery_photo_url"),
            completedAt: try row.decode("completed_at"),
            cancelledAt: try row.decode("cancelled_at"), shipment: shipment, refund: refund,
            delivery: OrderDelivery(date: try row.decode("delivery_date"), slot: try row.decode("delivery_slot"),
                                    cardMessage: try row.decode("card_message"), cardSignature: try row.decode("card_signature")),
            trackingToken: try row.decode("tracking_token"), anonymousSender: try row.decode("anonymous_sender"),
            notifyRecipient: try row.decode("notify_recipient"))
    }
}

extension OrderStore.NewItem {
    /// A line from a row of `OrderStore.itemColumns`.
    init(row: Row) throws {
        self.init(skuID: try row.decode("sku_id"), productID: try row.decode("product_id"), title: try row.decode("title"),
                  skuName: try row.decode("sku_name"), priceCents: try row.decode("price_cents"),
                  quantity: try row.decode("quantity"))
    }
}

extension OrderItem {
    /// A line as its owner sees it, from a row of `OrderStore.itemColumns`.
    init(row: Row) throws {
        self.init(skuID: try row.decode("sku_id"), title: try row.decode("title"), skuName: try row.decode("sku_name"),
                  priceCents: try row.decode("price_cents"), quantity: try row.decode("quantity"))
    }
}

extension OrderRefund {
    /// A refund from a row of `OrderStore.refundColumns`.
    init(row: Row) throws {
        self.init(status: try row.decode("status"), amountCents: try row.decode("amount_cents"),
                  refundedAt: try row.decode("refunded_at"))
    }
}
