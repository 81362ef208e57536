import Foundation
import ShopCore
import ShopTestSupport
import Testing

/// `shop notifications list [--failed]` and `shop notifications retry ID`: the built binary on the
/// test database.
@Suite("shop notifications: the outbox from the command line")
struct NotificationsCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func listShowsTheOutboxAndRetryMakesAFailedNoticeDueAgainAudited() throws {
        let s = try PaymentAPIScenario()
        let order = try OrdersDeskCommandTests.paidOrder(s)
        let paid = try #require(try s.shop.noticeOutbox.list(order: order.id).first)
        #expect(paid.event == .paid && paid.status == .pending)
        // the notice used up its tries
        try s.shop.pool.write { db in
            try db.run("UPDATE notifications SET status = 'failed', attempts = 10, last_error = 'gateway answered 503' WHERE id = \(paid.id)")
        }

        let (status, output) = try CLI.run(["notifications", "list", "--failed", "--format", "json"], database: s.shop.config)
        #expect(status == 0, "\(output)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: String]])
        #expect(rows.count == 1)
        #expect(rows.first?["id"] == paid.id.description && rows.first?["order"] == order.number)
        #expect(rows.first?["event"] == "paid" && rows.first?["audience"] == "buyer" && rows.first?["status"] == "failed")
        #expect(rows.first?["last_error"] == "gateway answered 503")

        let (table, listed) = try CLI.run(["notifications", "list"], database: s.shop.config)
        #expect(table == 0 && listed.contains("LAST ERROR") && listed.contains(order.number), "\(listed)")

        let (retryStatus, retried) = try CLI.run(["notifications", "retry", paid.id.description, "--format", "csv"], database: s.shop.config)
        #expect(retryStatus == 0, "\(retried)")
        #expect(retried.contains(",pending,0,"), "\(retried)")
        let after = try #require(try s.shop.noticeOutbox.list(order: order.id).first)
        #expect(after.status == .pending && after.attempts == 0)
        let audit = try s.shop.audit.entries(AuditFilter(target: "notification:\(paid.id)"), page: try PageRequest()).items
        #expect(audit.map(\.action) == ["notification.retry"])
        #expect(audit.first?.actor.hasPrefix("cli:") == true)

        let (unknown, refused) = try CLI.run(["notifications", "retry", "999999"], database: s.shop.config)
        #expect(unknown == 1 && refused.contains("no notice numbered 999999"), "\(refused)")
        let (usage, bad) = try CLI.run(["notifications", "retry", "abc"], database: s.shop.config)
        #expect(usage == 2, "\(bad)")
    }
}
