import SQL
import SQLite

/// SQL for payments and payment events.
struct PaymentStore {
    struct Payment {
        let id: PaymentID
        let orderID: OrderID
        let provider: PaymentProvider
        let amountCents: Int64
        let status: PaymentStatus
    }

    static func payment(_ row: Row) throws -> Payment {
        Payment(id: PaymentID(try row.int64("id")), orderID: OrderID(try row.int64("order_id")),
                provider: PaymentProvider(rawValue: try row.string("provider")) ?? .mockpay,
                amountCents: try row.int64("amount_cents"),
                status: PaymentStatus(rawValue: try row.string("status")) ?? .pending)
    }

    func insert(order: OrderID, provider: PaymentProvider, amountCents: Int64, at now: Int64, _ db: Connection) throws -> PaymentID {
        try db.legacyRun("""
            INSERT INTO payments (order_id, provider, amount_cents, currency, status, created_at, updated_at)
            VALUES (?, ?, ?, 'CNY', 'pending', ?, ?)
            """, order.rawValue, provider.rawValue, amountCents, now, now)
        return PaymentID(db.lastInsertRowID)
    }

    func find(_ id: PaymentID, _ db: Connection) throws -> Payment? {
        try db.legacyQueryOne("SELECT id, order_id, provider, amount_cents, status FROM payments WHERE id = ?", id.rawValue)
            .map(Self.payment)
    }

    /// The newest attempt for an order, optionally of one provider.
    func latest(order: OrderID, provider: PaymentProvider?, _ db: Connection) throws -> Payment? {
        if let provider {
            return try db.legacyQueryOne("""
                SELECT id, order_id, provider, amount_cents, status FROM payments WHERE order_id = ? AND provider = ?
                ORDER BY created_at DESC, id DESC LIMIT 1
                """, order.rawValue, provider.rawValue).map(Self.payment)
        }
        return try db.legacyQueryOne("""
            SELECT id, order_id, provider, amount_cents, status FROM payments WHERE order_id = ?
            ORDER BY created_at DESC, id DESC LIMIT 1
            """, order.rawValue).map(Self.payment)
    }

    /// Another payment of the same order that already succeeded.
    func otherSucceeded(order: OrderID, except payment: PaymentID, _ db: Connection) throws -> Bool {
        try db.legacyScalarInt("SELECT COUNT(*) FROM payments WHERE order_id = ? AND id <> ? AND status = 'succeeded'",
                         order.rawValue, payment.rawValue) ?? 0 > 0
    }

    func setStatus(_ id: PaymentID, _ status: PaymentStatus, tradeNo: String?, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE payments SET status = ?, provider_trade_no = COALESCE(?, provider_trade_no), updated_at = ? WHERE id = ?",
                   status.rawValue, tradeNo, now, id.rawValue)
    }

    /// Records an event once; false when this provider already sent this event id.
    func recordEvent(_ event: PaymentEvent, payment: PaymentID?, outcome: String, rawBody: String, at now: Int64,
                     _ db: Connection) throws -> Bool {
        do {
            try db.legacyRun("""
                INSERT INTO payment_events (provider, event_id, payment_id, order_number, status, amount_cents, currency,
                                            outcome, raw_body, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, event.provider.rawValue, event.eventID, payment?.rawValue, event.orderNumber, event.result.rawValue,
                event.amountCents, event.currency, outcome, rawBody, now)
            return true
        } catch let error as SQLiteError where error.isUniqueViolation {
            return false
        }
    }

    func eventExists(_ event: PaymentEvent, _ db: Connection) throws -> Bool {
        try db.legacyScalarInt("SELECT COUNT(*) FROM payment_events WHERE provider = ? AND event_id = ?",
                         event.provider.rawValue, event.eventID) == 1
    }
}
