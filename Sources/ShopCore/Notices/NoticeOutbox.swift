import Foundation
import SQL

/// Sends the outbox's notices, each exactly once per event and order across nodes and restarts.
///
/// A dispatcher claims due rows in one short transaction (PostgreSQL: `FOR UPDATE SKIP LOCKED`,
/// so nodes take different rows; SQLite: one writer at a time), recording the claim — this node
/// and a lease — before anything is sent. It then sends each outside any transaction and marks
/// it sent only if its claim still stands. A node killed between sending and marking leaves the
/// row `sending`; once the lease runs out another dispatcher (or this one after a restart) claims
/// it again. Whether that sends it twice is the sender's to answer: the file sender writes a
/// notice's line only when no line with its id is in the file (checked and written under an
/// exclusive lock on the file), so the file holds it once; the webhook sends the same id again,
/// for the gateway to drop. A failed send is due again after a wait that doubles from
/// `firstRetrySeconds` up to `maxRetrySeconds`; after `maxAttempts` tries the notice is `failed`
/// until an operator retries it.
public struct NoticeOutbox: Sendable {
    let pool: any Database
    let clock: Clock
    let sender: any NoticeSender
    let logger: Logger
    /// This dispatcher's name in claims: unique per process (two shops on one database differ).
    let node: String
    /// How long a claim holds (`notifications.claim_seconds`): longer than a batch takes to send.
    let leaseSeconds: Int64
    let maxAttempts: Int
    private let store = NoticeStore()

    static let firstRetrySeconds: Int64 = 30
    static let maxRetrySeconds: Int64 = 3_600
    public static let maxListed = 1_000

    /// What one run did.
    public struct Run: Sendable, Equatable {
        public var sent = 0
        public var failed = 0
    }

    public init(pool: any Database, clock: Clock, sender: any NoticeSender, logger: Logger, node: String,
                leaseSeconds: Int64 = 60, maxAttempts: Int = 10) {
        self.pool = pool
        self.clock = clock
        self.sender = sender
        self.logger = logger
        self.node = node
        self.leaseSeconds = leaseSeconds
        self.maxAttempts = maxAttempts
    }

    /// Claims up to `batch` due notices and sends them; answers how many went and how many failed.
    @discardableResult
    public func dispatchDue(batch: Int = 10) throws -> Run {
        let now = clock.unixNow
        let leaseUntil = now + leaseSeconds
        let claimed = try pool.write { db in
            try store.claim(due: now, for: node, leaseUntil: leaseUntil, limit: batch, db)
        }
        var run = Run()
        for (notice, recovered) in claimed {
            // a claim that ran out (a gateway slower than the lease) may be another node's by now:
            // what is left of the batch is sent by whoever claims it next
            guard clock.unixNow < leaseUntil else { break }
            if recovered { logger.info("notice claim recovered", ["id": notice.id.description]) }
            let message = NoticeMessage(id: notice.id, to: notice.to, event: notice.event, orderNumber: notice.orderNumber,
                                        text: notice.text, sentAt: clock.now)
            do {
                try sender.send(message)
            } catch {
                let attempts = notice.attempts + 1
                let givingUp = attempts >= maxAttempts
                let wait = min(Self.maxRetrySeconds, Self.firstRetrySeconds << Int64(min(notice.attempts, 20)))
                logger.warning("notice not sent", ["id": notice.id.description, "attempts": String(attempts),
                                                   "error": String(describing: error)])
                try pool.write { db in
                    try store.markFailed(notice.id, by: node, error: String(describing: error), nextAttempt: clock.unixNow + wait,
                                         givingUp: givingUp, db)
                }
                run.failed += 1
                continue
            }
            let marked = try pool.write { db in try store.markSent(notice.id, by: node, at: clock.unixNow, db) }
            if !marked { logger.warning("notice sent after its claim was lost", ["id": notice.id.description]) }
            run.sent += 1
        }
        return run
    }

    /// Operators: notices newest first, all or only those that gave up (`shop notifications list`).
    public func list(failedOnly: Bool = false, order: OrderID? = nil, limit: Int = 100) throws -> [Notice] {
        try pool.read { db in try store.list(failedOnly: failedOnly, order: order, limit: min(max(limit, 1), Self.maxListed), db) }
    }

    /// Operators: a failed (or waiting) notice due now, its tries counted afresh; recorded in the
    /// audit log. `notFound` when there is no such notice, `stateConflict` when it is sent or being sent.
    public func retry(_ id: NoticeID, by actor: StaffActor) throws -> Notice {
        let now = clock.unixNow
        return try pool.write { db in
            guard let before = try store.find(id, db) else { throw NoticeError.notFound }
            guard try store.retryNow(id, at: now, db), let after = try store.find(id, db) else {
                throw NoticeError.notRetryable(before.status)
            }
            try AuditTrail().record(actor, "notification.retry", target: "notification:\(id)",
                                    before: ["status": before.status.rawValue, "attempts": String(before.attempts)],
                                    after: ["status": after.status.rawValue, "attempts": String(after.attempts)], at: now, db)
            return after
        }
    }
}

/// What an operator's notice command can run into.
public enum NoticeError: Error, Equatable {
    case notFound
    /// Sent already, or being sent.
    case notRetryable(NoticeStatus)
}
