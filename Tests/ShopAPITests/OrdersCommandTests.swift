import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// `shop orders …` as a packer and an operator use it: the built binary on the test database.
@Suite("shop orders")
struct OrdersCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func showPrintsWhatAPackerNeeds() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder(quantity: 3)
        let (status, output) = try CLI.run(["orders", "show", order.number], database: s.shop.config)
        #expect(status == 0, "\(output)")
        let item = try #require(order.items.first)
        for needed in [order.number, "pending_payment", item.title, item.skuName, "3", order.address.recipient,
                       order.address.phone, order.address.district, order.address.detail,
                       ShopTime.minute(order.createdAt), "UTC+8", "Pay by"] {
            #expect(output.contains(needed), "missing \(needed) in:\n\(output)")
        }
    }

    /// Rows written before control characters were refused on input still print safely.
    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func controlCharactersStoredInAnOrderArePrintedEscapedNeverRaw() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()
        let note = "放门口\r\u{1B}[2K", card = "生日快乐\n爱你\r\u{1B}]0;pwned\u{7}", recipient = "王\u{1B}[31m小花\u{9B}"
        try s.shop.pool.write { db in
            _ = try db.run("""
                UPDATE orders SET note = \(note), card_message = \(card), card_signature = \("小\t明"),
                       ship_recipient = \(recipient) WHERE id = \(order.id.rawValue)
                """)
        }
        let day = try #require(try s.shop.orders.order(number: order.number).delivery.date)
        let runs = [["orders", "show", order.number], ["orders", "list"],
                    ["orders", "list", "--delivery-date", day.description, "--status", "pending_payment"]]
        for arguments in runs {
            let (status, output) = try CLI.run(arguments, database: s.shop.config)
            #expect(status == 0, "\(output)")
            #expect(!output.unicodeScalars.contains { $0 == "\r" || $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{9B}" || $0 == "\t" },
                    "\(arguments): \(output.debugDescription)")
            #expect(output.contains("王\\u{1B}[31m小花\\u{9B}"), "\(arguments): \(output)")
        }
        let (_, shown) = try CLI.run(runs[0], database: s.shop.config)
        #expect(shown.contains("Note       放门口\\r\\u{1B}[2K"), "\(shown)")
        #expect(shown.contains("Card       生日快乐\n           爱你\\r\\u{1B}]0;pwned\\u{7}  — 小\\t明"), "\(shown)")
        let (_, worklist) = try CLI.run(runs[2], database: s.shop.config)
        #expect(worklist.contains("生日快乐 爱你\\r\\u{1B}]0;pwned\\u{7}"), "one order, one line: \(worklist)")
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func showOfAnUnknownNumberFailsWithExitStatus1() throws {
        let s = try PaymentAPIScenario()
        let (status, output) = try CLI.run(["orders", "show", "20991231999999"], database: s.shop.config)
        #expect(status == 1)
        #expect(output.contains("no order numbered 20991231999999"))
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func listShowsTimesInTheShopsTimeZone() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()
        let (status, output) = try CLI.run(["orders", "list"], database: s.shop.config)
        #expect(status == 0, "\(output)")
        #expect(output.contains("CREATED (UTC+8)"))
        #expect(output.contains(ShopTime.minute(order.createdAt)), "\(output)")
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func helpWorksForCommandGroups() throws {
        let s = try PaymentAPIScenario()
        let (ordersStatus, orders) = try CLI.run(["orders", "--help"], database: s.shop.config)
        #expect(ordersStatus == 0)
        for command in ["shop orders list", "shop orders show", "shop orders ship"] {
            #expect(orders.contains(command), "\(orders)")
        }
        let (payStatus, pay) = try CLI.run(["help", "pay"], database: s.shop.config)
        #expect(payStatus == 0 && pay.contains("shop pay simulate"))
        let (bareStatus, bare) = try CLI.run(["orders"], database: s.shop.config)
        #expect(bareStatus == 2 && bare.contains("which one?"))
    }

    @Test func theShopsTimeIsChinaTime() {
        let instant = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01 00:00:00 UTC
        #expect(ShopTime.minute(instant) == "2026-12-01 08:00")
        #expect(ShopTime.day(Date(timeIntervalSince1970: 1_796_083_200 - 3_600 * 9)) == "20261130")
        #expect(ShopTime.day(Date(timeIntervalSince1970: 1_796_083_200 - 3_600 * 7)) == "20261201")
    }
}
