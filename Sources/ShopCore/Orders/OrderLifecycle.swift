import SQL

/// The status transitions of an order, run inside a caller's write transaction so that each one
/// happens exactly once: a guarded UPDATE moves the status, and only the caller that moved it
/// applies the side effects (stock back on cancel, sales on payment). Which status each move
/// starts from is `OrderStatus`'s table.
struct OrderLifecycle {
    private let orders = OrderStore()
    private let stock = StockStore()
    private let coupons = CouponRedemption()
    private let slots = SlotLoadStore()

    /// Moves the order to `status` from the status the state machine allows before it, stamping
    /// `stamp`; false when the order was not there (another request or the sweeper got there first).
    private func move(_ id: OrderID, to status: OrderStatus, stamp: OrderStore.Stamp?, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        let from = status.previous
        precondition(!from.isEmpty, "no order moves to \(status)")
        return try orders.transition(id, from: from, to: status, stamp: stamp, at: now, db)
    }

    /// pending_payment → paid; counts the units sold. False when the order was not pending.
    func markPaid(_ id: OrderID, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        guard try move(id, to: .paid, stamp: .paidAt, at: now, db) else { return false }
        for item in try orders.items(of: id, db) {
            try stock.addSales(item.quantity, to: item.productID, db)
        }
        return true
    }

    /// pending_payment → cancelled; returns the stock, the coupon's use and the delivery slot's place.
    /// False when the order was not pending.
    func cancel(_ id: OrderID, reason: String, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        guard try move(id, to: .cancelled, stamp: .cancelledAt, at: now, db) else {
            return false
        }
        try orders.setCancelReason(id, reason, db)
        for item in try orders.items(of: id, db) {
            try stock.giveBack(item.quantity, of: item.skuID, db)
        }
        try coupons.giveBack(order: id, at: now, db)
        try slots.release(order: id, db)
        return true
    }

    /// paid → refunding: the buyer cancelled before shipping; the stock, the coupon's use and the
    /// delivery slot's place return and the units no longer count as sold. False when the order was not paid.
    func startRefund(_ id: OrderID, reason: String, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        guard try move(id, to: .refunding, stamp: .cancelledAt, at: now, db) else { return false }
        try orders.setCancelReason(id, reason, db)
        for item in try orders.items(of: id, db) {
            try stock.giveBack(item.quantity, of: item.skuID, db)
            try stock.addSales(-item.quantity, to: item.productID, db)
        }
        try coupons.giveBack(order: id, at: now, db)
        try slots.release(order: id, db)
        return true
    }

    /// refunding → refunded, once the provider confirmed the money went back.
    func finishRefund(_ id: OrderID, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try move(id, to: .refunded, stamp: nil, at: now, db)
    }

    /// paid → shipped, with a carrier and tracking number or none (the shop's own courier).
    func ship(_ id: OrderID, carrier: String?, trackingNumber: String?, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        guard try move(id, to: .shipped, stamp: .shippedAt, at: now, db) else { return false }
        try orders.setShipment(id, carrier: carrier, trackingNumber: trackingNumber, db)
        return true
    }

    /// shipped → delivered, with the photo taken at the door if any.
    func deliver(_ id: OrderID, photoURL: String?, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        guard try move(id, to: .delivered, stamp: .deliveredAt, at: now, db) else { return false }
        try orders.setDeliveryPhoto(id, photoURL, db)
        return true
    }

    /// shipped or delivered → completed (the buyer confirmed, or the auto-complete delay passed).
    func complete(_ id: OrderID, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try move(id, to: .completed, stamp: .completedAt, at: now, db)
    }
}
