import Foundation
import SQL
import ShopTestSupport
import Synchronization
import Testing
@testable import ShopCore

@Suite("Notices: the outbox's dispatcher")
struct NoticeDispatchTests {
    static let florist = StaffActor.commandLine(user: "florist")

    /// A paid and shipped order: three notices due (paid to the buyer, shipped to both).
    static func threeDue(_ s: PaymentScenario) throws -> Order {
        let order = try s.placeOrder()
        try s.deliverMockpay(s.mockpayBody(order, event: "evt-\(order.number)"))
        _ = try s.shop.orders.ship(number: order.number, carrier: nil, trackingNumber: nil, by: florist)
        return order
    }

    @Test func eachDueNoticeIsSentOnceAndMarkedSent() throws {
        let s = try PaymentScenario()
        let order = try Self.threeDue(s)
        let sender = CapturingNoticeSender()
        let outbox = s.test.outbox(sender)
        #expect(try outbox.dispatchDue() == NoticeOutbox.Run(sent: 3, failed: 0))
        #expect(try outbox.dispatchDue() == NoticeOutbox.Run(sent: 0, failed: 0))
        #expect(sender.sent.map(\.event) == [.paid, .shipped, .shipped])
        #expect(sender.sent.allSatisfy { $0.orderNumber == order.number })
        let rows = try outbox.list(order: order.id)
        #expect(rows.allSatisfy { $0.status == .sent && $0.sentAt == s.test.clock.now && $0.attempts == 1 })
    }

    @Test func aFailingSenderIsRetriedWithGrowingWaitsThenGivesUpUntilAnOperatorRetries() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        try s.deliverMockpay(s.mockpayBody(order, event: "evt-fail"))
        let sender = CapturingNoticeSender()
        sender.setFailing(true)
        let outbox = s.test.outbox(sender, maxAttempts: 3)
        let start = s.test.clock.now

        #expect(try outbox.dispatchDue() == NoticeOutbox.Run(sent: 0, failed: 1))
        var notice = try #require(try outbox.list(order: order.id).first)
        #expect(notice.status == .pending && notice.attempts == 1 && notice.lastError == "gateway answered 503")
        #expect(notice.nextAttemptAt == start.addingTimeInterval(30))
        // not due yet: nothing is tried
        #expect(try outbox.dispatchDue() == NoticeOutbox.Run(sent: 0, failed: 0))

        s.test.clock.advance(by: 30)
        #expect(try outbox.dispatchDue().failed == 1)
        notice = try #require(try outbox.list(order: order.id).first)
        #expect(notice.attempts == 2 && notice.nextAttemptAt == s.test.clock.now.addingTimeInterval(60))

        s.test.clock.advance(by: 60)
        #expect(try outbox.dispatchDue().failed == 1)
        notice = try #require(try outbox.list(order: order.id).first)
        #expect(notice.status == .failed && notice.attempts == 3)
        #expect(try outbox.list(failedOnly: true).map(\.id) == [notice.id])
        s.test.clock.advance(by: 86_400)
        #expect(try outbox.dispatchDue() == NoticeOutbox.Run(sent: 0, failed: 0))

        sender.setFailing(false)
        let retried = try outbox.retry(notice.id, by: .commandLine(user: "ops"))
        #expect(retried.status == .pending && retried.attempts == 0)
        #expect(try outbox.dispatchDue().sent == 1)
        #expect(sender.sent.map(\.id) == [notice.id])
        #expect(throws: NoticeError.notRetryable(.sent)) { try outbox.retry(notice.id, by: .commandLine(user: "ops")) }
        #expect(throws: NoticeError.notFound) { try outbox.retry(NoticeID(999_999), by: .commandLine(user: "ops")) }
        let audit = try s.shop.audit.entries(AuditFilter(target: "notification:\(notice.id)"), page: try PageRequest()).items
        #expect(audit.map(\.action) == ["notification.retry"] && audit.first?.actor == "cli:ops")
    }

    @Test func twoShopsOnOneDatabaseNeverSendOneNoticeTwice() throws {
        let s = try PaymentScenario()
        for index in 0..<12 {
            let order = try s.placeOrder(quantity: 1)
            try s.deliverMockpay(s.mockpayBody(order, event: "evt-\(index)"))
            _ = try s.shop.orders.ship(number: order.number, carrier: nil, trackingNumber: nil, by: Self.florist)
        }
        let other = try s.test.reopened { _ in }
        let sender = CapturingNoticeSender()
        let outboxes = [s.test.outbox(sender, node: "node-a"),
                        NoticeOutbox(pool: other.pool, clock: s.test.clock.clock, sender: sender, logger: .silent, node: "node-b")]
        race(4) { index in
            for _ in 0..<20 { _ = try? outboxes[index % 2].dispatchDue(batch: 3) }
        }
        let ids = sender.sent.map(\.id)
        #expect(ids.count == 36)
        #expect(Set(ids).count == ids.count)
        let pending = try s.test.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM notifications WHERE status <> 'sent'") }
        #expect(pending == 0)
    }

    @Test func aClaimLeftByADeadNodeIsTakenAgainAndTheFileHoldsItsLineOnce() throws {
        let s = try PaymentScenario()
        let order = try Self.threeDue(s)
        let path = s.test.directory.appendingPathComponent("notices.jsonl").path
        let file = FileNoticeSender(path: path)
        // the dead node claimed all three and wrote the first line, then was killed before marking it sent
        let claimed = try s.test.pool.write { db in
            try NoticeStore().claim(due: s.test.clock.clock.unixNow, for: "dead-node", leaseUntil: s.test.clock.clock.unixNow + 60,
                                    limit: 10, db)
        }
        #expect(claimed.count == 3)
        let first = claimed[0].notice
        try file.send(NoticeMessage(id: first.id, to: first.to, event: first.event, orderNumber: first.orderNumber,
                                    text: first.text, sentAt: s.test.clock.now))

        let outbox = s.test.outbox(file, node: "restarted")
        // the claim still holds: nothing is taken
        #expect(try outbox.dispatchDue() == NoticeOutbox.Run(sent: 0, failed: 0))
        s.test.clock.advance(by: 61)
        #expect(try outbox.dispatchDue().sent == 3)

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let messages = try lines.map { try decoder.decode(NoticeMessage.self, from: Data($0.utf8)) }
        #expect(Set(messages.map(\.id)).count == 3)
        #expect(messages.allSatisfy { $0.orderNumber == order.number })
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]).keys
        #expect(Set(keys) == ["id", "to", "event", "order_number", "text", "sent_at"])
        #expect(try outbox.list(order: order.id).allSatisfy { $0.status == .sent })
    }
}
