import SQL

/// SQL for the notices outbox (`notifications`, migration 0032).
struct NoticeStore {
    static let columns: SQL = """
        n.id, n.order_id, o.number AS order_number, n.event, n.subject, n.audience, n.recipient, n.text, n.status,
        n.attempts, n.next_attempt_at, n.created_at, n.sent_at, n.last_error
        """

    /// Writes one message unless the same (order, event, subject, audience) is there already:
    /// an event told twice is one notice.
    func add(order: OrderID, event: NoticeEvent, subject: String, audience: NoticeAudience, to: String, text: String,
             at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO notifications (order_id, event, subject, audience, recipient, text, status, attempts, next_attempt_at,
                                       created_at)
            VALUES (\(order), \(event), \(subject), \(audience), \(to), \(text), \(NoticeStatus.pending), 0, \(now), \(now))
            ON CONFLICT (order_id, event, subject, audience) DO NOTHING
            """)
    }

    /// Claims up to `limit` notices that are due (pending and their time come, or claimed by a
    /// dispatcher whose claim has expired) for `node` until `leaseUntil`. Answers each with
    /// whether it was someone's claim before (its fate unknown: it may have been sent).
    func claim(due now: Int64, for node: String, leaseUntil: Int64, limit: Int,
               _ db: any SQLConnection) throws -> [(notice: Notice, recovered: Bool)] {
        let due: SQL = """
            ((status = \(NoticeStatus.pending) AND next_attempt_at <= \(now))
             OR (status = \(NoticeStatus.sending) AND claim_expires_at <= \(now)))
            """
        let ids = try db.query("""
            SELECT id, status FROM notifications WHERE \(due) ORDER BY next_attempt_at, id LIMIT \(limit)
            \(db.skippingLockedRows)
            """).map { (id: try $0.decode("id", as: NoticeID.self), status: try $0.decode("status", as: NoticeStatus.self)) }
        var claimed: [(Notice, Bool)] = []
        for (id, status) in ids {
            // guarded by the same condition: a row another dispatcher claimed since the SELECT
            // (its lease now in the future) is left alone
            let changed = try db.run("""
                UPDATE notifications SET status = \(NoticeStatus.sending), claimed_by = \(node), claim_expires_at = \(leaseUntil)
                WHERE id = \(id) AND \(due)
                """)
            if changed == 1, let notice = try find(id, db) { claimed.append((notice, status == .sending)) }
        }
        return claimed
    }

    /// Marks a notice this node claimed sent; false when its claim was lost (expired and taken).
    func markSent(_ id: NoticeID, by node: String, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try db.run("""
            UPDATE notifications SET status = \(NoticeStatus.sent), sent_at = \(now), attempts = attempts + 1,
                   claimed_by = NULL, claim_expires_at = NULL, last_error = NULL
            WHERE id = \(id) AND status = \(NoticeStatus.sending) AND claimed_by = \(node)
            """) == 1
    }

    /// Records a failed try of a notice this node claimed: due again at `nextAttempt`, or `failed`.
    func markFailed(_ id: NoticeID, by node: String, error: String, nextAttempt: Int64, givingUp: Bool,
                    _ db: any SQLConnection) throws {
        let status = givingUp ? NoticeStatus.failed : NoticeStatus.pending
        try db.run("""
            UPDATE notifications SET status = \(status), attempts = attempts + 1, next_attempt_at = \(nextAttempt),
                   claimed_by = NULL, claim_expires_at = NULL, last_error = \(String(error.prefix(500)))
            WHERE id = \(id) AND status = \(NoticeStatus.sending) AND claimed_by = \(node)
            """)
    }

    /// A failed (or pending) notice due now again, its attempts counted from zero; false when it
    /// is sent or being sent.
    func retryNow(_ id: NoticeID, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try db.run("""
            UPDATE notifications SET status = \(NoticeStatus.pending), attempts = 0, next_attempt_at = \(now)
            WHERE id = \(id) AND status IN (\(NoticeStatus.failed), \(NoticeStatus.pending))
            """) == 1
    }

    func find(_ id: NoticeID, _ db: any SQLConnection) throws -> Notice? {
        try db.queryOne("SELECT \(Self.columns) FROM notifications n JOIN orders o ON o.id = n.order_id WHERE n.id = \(id)")
            .map(Notice.init(row:))
    }

    /// Notices newest first: all, or only those that gave up.
    func list(failedOnly: Bool, order: OrderID?, limit: Int, _ db: any SQLConnection) throws -> [Notice] {
        var conditions: [SQL] = []
        if failedOnly { conditions.append("n.status = \(NoticeStatus.failed)") }
        if let order { conditions.append("n.order_id = \(order)") }
        let filter: SQL = conditions.isEmpty ? .empty : "WHERE \(conditions.joined(separator: " AND "))"
        return try db.query("""
            SELECT \(Self.columns) FROM notifications n JOIN orders o ON o.id = n.order_id \(filter)
            ORDER BY n.id DESC LIMIT \(limit)
            """).map(Notice.init(row:))
    }
}
