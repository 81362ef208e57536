import Foundation
import SQL

/// Where a refund is: `pending` (to request, again after a failure), `requested` (the provider
/// took it; its confirmation is awaited), `refunded` (confirmed), `failed` (refused for good by
/// the provider: an operator looks, and may retry).
public enum RefundStatus: String, Sendable, Codable, CaseIterable {
    case pending, requested, refunded, failed
}

/// One payment going back to the buyer, for operators.
public struct Refund: Sendable, Equatable {
    /// The idempotent refund number sent to the provider on every try.
    public let number: String
    public let orderID: OrderID
    public let orderNumber: String
    public let paymentID: PaymentID
    public let provider: PaymentProvider
    public let amountCents: Int64
    /// The whole payment this refund gives back (part of): what WeChat Pay's `total_fee` names.
    public let paymentAmountCents: Int64
    public let status: RefundStatus
    public let attempts: Int
    public let lastError: String?
    public let createdAt: Date
    public let refundedAt: Date?
    /// The operator's reason for a shop refund; nil for a buyer's cancel.
    public let reason: String?
}

/// SQL for refunds.
struct RefundStore {
    static let columns: SQL = """
        r.number, r.order_id, o.number AS order_number, r.payment_id, r.provider, r.amount_cents,
        p.amount_cents AS payment_amount_cents, r.status, r.attempts, r.last_error, r.created_at, r.refunded_at, r.reason
        """
    /// What `columns` reads from.
    static let tables: SQL = "refunds r JOIN orders o ON o.id = r.order_id JOIN payments p ON p.id = r.payment_id"

    static func refund(_ row: Row) throws -> Refund {
        Refund(number: try row.decode("number"), orderID: try row.decode("order_id"), orderNumber: try row.decode("order_number"),
               paymentID: try row.decode("payment_id"), provider: try row.decode("provider"),
               amountCents: try row.decode("amount_cents"), paymentAmountCents: try row.decode("payment_amount_cents"),
               status: try row.decode("status"), attempts: try row.decode("attempts"),
               lastError: try row.decode("last_error"), createdAt: try row.decode("created_at"),
               refundedAt: try row.decode("refunded_at"), reason: try row.decode("reason"))
    }

    /// Opens the refund of what is left of one payment, once: its number is the order's and the
    /// payment's. What shop refunds already took of it is left out; nothing left, nothing opened.
    func open(payment: PaymentID, at now: Int64, _ db: any SQLConnection) throws {
        let left = (try db.scalarInt("SELECT amount_cents FROM payments WHERE id = \(payment)") ?? 0)
            - (try refundedOrOnTheirWay(payment: payment, db))
        guard left > 0 else { return }
        try db.run("""
            INSERT INTO refunds (number, order_id, payment_id, provider, amount_cents, status, next_attempt_at, created_at, updated_at)
            SELECT 'R' || o.number || '-' || CAST(p.id AS TEXT), p.order_id, p.id, p.provider, \(left), 'pending',
                   \(now), \(now), \(now)
            FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.id = \(payment)
            ON CONFLICT (number) DO NOTHING
            """)
    }

    /// The lock every writer of an order's refunds takes (PostgreSQL; SQLite has one writer), so
    /// a cancel's refund of what is left and a shop refund never both count the same money as left.
    static func lockKey(_ order: OrderID) -> String { "order-refunds:\(order.rawValue)" }

    /// Opens a shop refund of `amountCents` of one payment and answers its number: the order's,
    /// the payment's and the refund's place among the payment's refunds (`R<order>-<payment>-2`),
    /// sent on every try so the provider refunds it once. The caller checked the amount.
    func openPart(payment: PaymentID, amountCents: Int64, reason: String, at now: Int64, _ db: any SQLConnection) throws -> String {
        let place = (try db.scalarInt("SELECT COUNT(*) FROM refunds WHERE payment_id = \(payment)") ?? 0) + 1
        let order = try db.scalar("SELECT o.number FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.id = \(payment)",
                                  as: String.self) ?? ""
        let number = "R\(order)-\(payment.rawValue)-\(place)"
        try db.run("""
            INSERT INTO refunds (number, order_id, payment_id, provider, amount_cents, status, next_attempt_at, created_at, updated_at,
                                 reason)
            SELECT \(number), p.order_id, p.id, p.provider, \(amountCents), 'pending', \(now), \(now), \(now), \(reason)
            FROM payments p WHERE p.id = \(payment)
            """)
        return number
    }

    /// What the refunds of one payment give back or may still: every one but those the provider
    /// refused for good (an operator may retry a failed one, so it counts too).
    func refundedOrOnTheirWay(payment: PaymentID, _ db: any SQLConnection) throws -> Int64 {
        try db.scalarInt("SELECT CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT) FROM refunds WHERE payment_id = \(payment)") ?? 0
    }

    /// The payment that paid `order`, and its amount.
    func paidPayment(of order: OrderID, _ db: any SQLConnection) throws -> (id: PaymentID, amountCents: Int64)? {
        try db.queryOne("""
            SELECT id, amount_cents FROM payments WHERE order_id = \(order) AND status = \(PaymentStatus.succeeded) ORDER BY id LIMIT 1
            """).map { (try $0.decode("id"), try $0.decode("amount_cents")) }
    }

    /// Every refund of one order, oldest first.
    func all(of order: OrderID, _ db: any SQLConnection) throws -> [Refund] {
        try db.query("SELECT \(Self.columns) FROM \(Self.tables) WHERE r.order_id = \(order) ORDER BY r.id").map(Self.refund)
    }

    /// Opens the refund of the payment that paid `order`.
    func openForPaidOrder(_ order: OrderID, at now: Int64, _ db: any SQLConnection) throws {
        try db.serialize(on: Self.lockKey(order))
        guard let payment = try paidPayment(of: order, db) else { return }
        try open(payment: payment.id, at: now, db)
    }

    /// Opens a refund for every payment flagged `needs_refund` that has none yet.
    func openForFlaggedPayments(at now: Int64, _ db: any SQLConnection) throws {
        let flagged = try db.query("""
            SELECT p.id FROM payments p WHERE p.status = \(PaymentStatus.needsRefund)
            AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.payment_id = p.id) ORDER BY p.id LIMIT 500
            """).map { try $0.decode("id", as: PaymentID.self) }
        for payment in flagged { try open(payment: payment, at: now, db) }
    }

    func find(_ number: String, _ db: any SQLConnection) throws -> Refund? {
        try db.queryOne("SELECT \(Self.columns) FROM \(Self.tables) WHERE r.number = \(number)")
            .map(Self.refund)
    }

    /// Refunds to request or confirm now, oldest first; of one order when given.
    func due(at now: Int64, order: OrderID?, limit: Int, _ db: any SQLConnection) throws -> [Refund] {
        let ofOrder: SQL = order.map { " AND r.order_id = \($0)" } ?? .empty
        return try db.query("""
            SELECT \(Self.columns) FROM \(Self.tables)
            WHERE r.status IN (\(RefundStatus.pending), \(RefundStatus.requested)) AND r.next_attempt_at <= \(now)\(ofOrder)
            ORDER BY r.next_attempt_at, r.id LIMIT \(limit)
            """).map(Self.refund)
    }

    /// Operators: refunds newest first, optionally of one status.
    func list(status: RefundStatus?, limit: Int, _ db: any SQLConnection) throws -> [Refund] {
        let filter: SQL = status.map { "WHERE r.status = \($0)" } ?? .empty
        return try db.query("""
            SELECT \(Self.columns) FROM \(Self.tables) \(filter) ORDER BY r.created_at DESC, r.id DESC
            LIMIT \(limit)
            """).map(Self.refund)
    }

    /// Records a try: the new status, the error if any, and when to try next.
    func record(_ number: String, status: RefundStatus, error: String?, nextAttempt: Int64, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE refunds SET status = \(status), attempts = attempts + 1, last_error = \(error), next_attempt_at = \(nextAttempt),
                               updated_at = \(now)
            WHERE number = \(number) AND status <> \(RefundStatus.refunded)
            """)
    }

    /// Confirmed by the provider; false when it already was (or is unknown).
    func markRefunded(_ number: String, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try db.run("""
            UPDATE refunds SET status = \(RefundStatus.refunded), refunded_at = \(now), updated_at = \(now), last_error = NULL
            WHERE number = \(number) AND status <> \(RefundStatus.refunded)
            """) == 1
    }

    /// Operators: try again now, a failed one too.
    func retryNow(_ number: String, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try db.run("""
            UPDATE refunds SET status = CASE WHEN status = \(RefundStatus.failed) THEN \(RefundStatus.pending) ELSE status END,
                               next_attempt_at = \(now), updated_at = \(now)
            WHERE number = \(number) AND status <> \(RefundStatus.refunded)
            """) == 1
    }

    /// Whether every refund of the payment that paid `order` is confirmed (and there is one): a
    /// part an operator refunded earlier and still on its way keeps a cancelled order refunding.
    func orderRefundConfirmed(_ order: OrderID, _ db: any SQLConnection) throws -> Bool {
        guard let row = try db.queryOne("""
            SELECT COUNT(*) AS refunds, CAST(SUM(CASE WHEN r.status = \(RefundStatus.refunded) THEN 1 ELSE 0 END) AS BIGINT) AS confirmed
            FROM refunds r JOIN payments p ON p.id = r.payment_id
            WHERE r.order_id = \(order) AND p.status = \(PaymentStatus.succeeded)
            """) else { return false }
        let refunds: Int64 = try row.decode("refunds")
        return try refunds > 0 && row.decode("confirmed", as: Int64?.self) == refunds
    }
}

extension RefundStatus: SQLCodable {}
