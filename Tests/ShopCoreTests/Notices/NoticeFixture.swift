import Foundation
import SQL
import ShopTestSupport
import Synchronization
@testable import ShopCore

/// A notice sender that keeps what it was given, or fails while told to.
final class CapturingNoticeSender: NoticeSender, Sendable {
    private let state = Mutex<(sent: [NoticeMessage], failing: Bool)>(([], false))

    func send(_ message: NoticeMessage) throws {
        try state.withLock { state in
            if state.failing { throw NoticeSendError("gateway answered 503") }
            state.sent.append(message)
        }
    }

    var sent: [NoticeMessage] { state.withLock { $0.sent } }

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }
}

/// `event audience` of each outbox row of an order, in the order they were written.
func outboxRows(_ test: TestShop, _ order: OrderID) throws -> [String] {
    try test.pool.read { db in
        try db.query("SELECT event, audience FROM notifications WHERE order_id = \(order) ORDER BY id").map {
            "\(try $0.decode("event", as: String.self)) \(try $0.decode("audience", as: String.self))"
        }
    }
}

extension TestShop {
    /// An outbox over this shop's database that sends through `sender`, named `node` in its claims.
    func outbox(_ sender: any NoticeSender, node: String = "test-node", maxAttempts: Int = 10) -> NoticeOutbox {
        NoticeOutbox(pool: pool, clock: clock.clock, sender: sender, logger: .silent, node: node, maxAttempts: maxAttempts)
    }
}
