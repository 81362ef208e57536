import SQLite

/// The status transitions of an order, run inside a caller's write transaction so that each one
/// happens exactly once: a guarded UPDATE moves the status, and only the caller that moved it
/// applies the side effects (stock back on cancel, sales on payment). Which status each move
/// starts from is `OrderStatus`'s table.
struct OrderLifecycle {
    private let orders = OrderStore()
    private let stock = StockStore()

    /// Moves the order to `status` from the status the state machine allows before it, stamping
    /// `timeColumn`; false when the order was not there (another request or the sweeper got there first).
    private func move(_ id: OrderID, to status: OrderStatus, timeColumn: String, at now: Int64, _ db: Connection) throws -> Bool {
        guard let from = status.previous else { preconditionFailure("no order moves to \(status.rawValue)") }
        return try orders.transition(id, from: from, to: status, timeColumn: timeColumn, at: now, db)
    }

    /// pending_payment → paid; counts the units sold. False when the order was not pending.
    func markPaid(_ id: OrderID, at now: Int64, _ db: Connection) throws -> Bool {
        guard try move(id, to: .paid, timeColumn: "paid_at", at: now, db) else { return false }
        for item in try orders.items(of: id, db) {
            try stock.addSales(item.quantity, to: item.productID, db)
        }
        return true
    }

    /// pending_payment → cancelled; returns the stock. False when the order was not pending.
    func cancel(_ id: OrderID, reason: String, at now: Int64, _ db: Connection) throws -> Bool {
        guard try move(id, to: .cancelled, timeColumn: "cancelled_at", at: now, db) else {
            return false
        }
        try orders.setCancelReason(id, reason, db)
        for item in try orders.items(of: id, db) {
            try stock.giveBack(item.quantity, of: item.skuID, db)
        }
        return true
    }

    /// paid → shipped with a carrier and tracking number.
    func ship(_ id: OrderID, carrier: String, trackingNumber: String, at now: Int64, _ db: Connection) throws -> Bool {
        guard try move(id, to: .shipped, timeColumn: "shipped_at", at: now, db) else { return false }
        try orders.setShipment(id, carrier: carrier, trackingNumber: trackingNumber, db)
        return true
    }

    /// shipped → completed (the buyer confirmed, or the auto-complete delay passed).
    func complete(_ id: OrderID, at now: Int64, _ db: Connection) throws -> Bool {
        try move(id, to: .completed, timeColumn: "completed_at", at: now, db)
    }
}
