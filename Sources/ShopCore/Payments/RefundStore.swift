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
    public let status: RefundStatus
    public let attempts: Int
    public let lastError: String?
    public let createdAt: Date
    public let refundedAt: Date?
}

/// SQL for refunds.
struct RefundStore {
    static let columns: SQL = """
        r.number, r.order_id, o.number AS order_number, r.payment_id, r.provider, r.amount_cents, r.status, r.attempts,
        r.last_error, r.created_at, r.refunded_at
        """

    static func refund(_ row: Row) throws -> Refund {
        Refund(number: try row.decode("number"), orderID: try row.decode("order_id"), orderNumber: try row.decode("order_number"),
               paymentID: try row.decode("payment_id"), provider: try row.decode("provider"),
               amountCents: try row.decode("amount_cents"), status: try row.decode("status"), attempts: try row.decode("attempts"),
               lastError: try row.decode("last_error"), createdAt: try row.decode("created_at"),
               refundedAt: try row.decode("refunded_at"))
    }

    /// Opens the refund of one payment, once: its number is the order's and the payment's.
    func open(payment: PaymentID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO refunds (number, order_id, payment_id, provider, amount_cents, status, next_attempt_at, created_at, updated_at)
            SELECT 'R' || o.number || '-' || CAST(p.id AS TEXT), p.order_id, p.id, p.provider, p.amount_cents, 'pending',
                   \(now), \(now), \(now)
            FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.id = \(payment)
            ON CONFLICT (payment_id) DO NOTHING
            """)
    }

    /// Opens the refund of the payment that paid `order`.
    func openForPaidOrder(_ order: OrderID, at now: Int64, _ db: any SQLConnection) throws {
        guard let payment = try db.scalar("""
            SELECT id FROM payments WHERE order_id = \(order) AND status = \(PaymentStatus.succeeded) ORDER BY id LIMIT 1
            """, as: PaymentID.self) else { return }
        try open(payment: payment, at: now, db)
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
        try db.queryOne("SELECT \(Self.columns) FROM refunds r JOIN orders o ON o.id = r.order_id WHERE r.number = \(number)")
            .map(Self.refund)
    }

    /// Refunds to request or confirm now, oldest first; of one order when given.
    func due(at now: Int64, order: OrderID?, limit: Int, _ db: any SQLConnection) throws -> [Refund] {
        let ofOrder: SQL = order.map { " AND r.order_id = \($0)" } ?? .empty
        return try db.query("""
            SELECT \(Self.columns) FROM refunds r JOIN orders o ON o.id = r.order_id
            WHERE r.status IN (\(RefundStatus.pending), \(RefundStatus.requested)) AND r.next_attempt_at <= \(now)\(ofOrder)
            ORDER BY r.next_attempt_at, r.id LIMIT \(limit)
            """).map(Self.refund)
    }

    /// Operators: refunds newest first, optionally of one status.
    func list(status: RefundStatus?, limit: Int, _ db: any SQLConnection) throws -> [Refund] {
        let filter: SQL = status.map { "WHERE r.status = \($0)" } ?? .empty
        return try db.query("""
            SELECT \(Self.columns) FROM refunds r JOIN orders o ON o.id = r.order_id \(filter) ORDER BY r.created_at DESC, r.id DESC
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

    /// Whether every refund of the payment that paid `order` is confirmed.
    func orderRefundConfirmed(_ order: OrderID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("""
            SELECT COUNT(*) FROM refunds r JOIN payments p ON p.id = r.payment_id
            WHERE r.order_id = \(order) AND p.status = \(PaymentStatus.succeeded) AND r.status = \(RefundStatus.refunded)
            """) ?? 0 > 0
    }
}

extension RefundStatus: SQLCodable {}
