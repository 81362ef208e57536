import SQL

/// SQL for payments and payment events.
struct PaymentStore {
    struct Payment {
        let id: PaymentID
        let orderID: OrderID
        let provider: PaymentProvider
        let amountCents: Int64
        let status: PaymentStatus
    }

    static let columns: SQL = "id, order_id, provider, amount_cents, status"

    static func payment(_ row: Row) throws -> Payment {
        Payment(id: try row.decode("id"), orderID: try row.decode("order_id"), provider: try row.decode("provider"),
                amountCents: try row.decode("amount_cents"), status: try row.decode("status"))
    }

    func insert(order: OrderID, provider: PaymentProvider, channel: PaymentChannel = .app, amountCents: Int64, at now: Int64,
                _ db: any SQLConnection) throws -> PaymentID {
        try db.insert("""
            INSERT INTO payments (order_id, provider, channel, amount_cents, currency, status, created_at, updated_at)
            VALUES (\(order), \(provider), \(channel), \(amountCents), 'CNY', 'pending', \(now), \(now))
            """, returning: PaymentID.self)
    }

    /// The pay parameters of an attempt still pending whose answer is valid at `now`, for the same
    /// order, provider and channel: what a repeated start returns without calling the provider.
    func keptAnswer(order: OrderID, provider: PaymentProvider, channel: PaymentChannel, at now: Int64,
                    _ db: any SQLConnection) throws -> (id: PaymentID, payParams: String)? {
        guard let row = try db.queryOne("""
            SELECT id, pay_params FROM payments
            WHERE order_id = \(order) AND provider = \(provider) AND channel = \(channel) AND status = 'pending'
              AND pay_params IS NOT NULL AND valid_until > \(now)
            ORDER BY id DESC LIMIT 1
            """) else { return nil }
        return (try row.decode("id"), try row.decode("pay_params"))
    }

    /// How many payment attempts an order has had.
    func attempts(order: OrderID, _ db: any SQLConnection) throws -> Int {
        try db.scalar("SELECT COUNT(*) FROM payments WHERE order_id = \(order)", as: Int.self) ?? 0
    }

    /// Keeps the provider's answer to an attempt until `validUntil`.
    func keep(_ id: PaymentID, payParams: String, validUntil: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE payments SET pay_params = \(payParams), valid_until = \(validUntil) WHERE id = \(id)")
    }

    func find(_ id: PaymentID, _ db: any SQLConnection) throws -> Payment? {
        try db.queryOne("SELECT \(Self.columns) FROM payments WHERE id = \(id)").map(Self.payment)
    }

    /// The newest attempt for an order, optionally of one provider.
    func latest(order: OrderID, provider: PaymentProvider?, _ db: any SQLConnection) throws -> Payment? {
        let ofProvider: SQL = provider.map { " AND provider = \($0)" } ?? .empty
        return try db.queryOne("""
            SELECT \(Self.columns) FROM payments WHERE order_id = \(order)\(ofProvider)
            ORDER BY created_at DESC, id DESC LIMIT 1
            """).map(Self.payment)
    }

    /// Another payment of the same order that already succeeded.
    func otherSucceeded(order: OrderID, except payment: PaymentID, _ db: any SQLConnection) throws -> Bool {
        try db.scalar("""
            SELECT COUNT(*) FROM payments WHERE order_id = \(order) AND id <> \(payment) AND status = 'succeeded'
            """, as: Int.self) ?? 0 > 0
    }

    func setStatus(_ id: PaymentID, _ status: PaymentStatus, tradeNo: String?, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE payments SET status = \(status), provider_trade_no = COALESCE(\(tradeNo), provider_trade_no), updated_at = \(now)
            WHERE id = \(id)
            """)
    }

    /// Records an event once; false when this provider already sent this event id.
    func recordEvent(_ event: PaymentEvent, payment: PaymentID?, outcome: String, rawBody: String, at now: Int64,
                     _ db: any SQLConnection) throws -> Bool {
        // ON CONFLICT rather than catching the unique violation: on PostgreSQL a failed statement
        // aborts the whole transaction.
        try db.run("""
            INSERT INTO payment_events (provider, event_id, payment_id, order_number, status, amount_cents, currency,
                                        outcome, raw_body, received_at)
            VALUES (\(event.provider), \(event.eventID), \(payment), \(event.orderNumber), \(event.result),
                    \(event.amountCents), \(event.currency), \(outcome), \(rawBody), \(now))
            ON CONFLICT (provider, event_id) DO NOTHING
            """) == 1
    }

    func eventExists(_ event: PaymentEvent, _ db: any SQLConnection) throws -> Bool {
        try db.scalar("SELECT COUNT(*) FROM payment_events WHERE provider = \(event.provider) AND event_id = \(event.eventID)",
                      as: Int.self) == 1
    }
}

/// Providers, statuses and event results are stored as their raw values; anything else is a corrupt row.
extension PaymentProvider: SQLCodable {}
extension PaymentStatus: SQLCodable {}
extension PaymentChannel: SQLCodable {}
extension PaymentEvent.Result: SQLCodable {}
