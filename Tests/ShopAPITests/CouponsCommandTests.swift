import Foundation
@testable import ShopCore
import ShopTestSupport
import Testing

/// `shop coupons create|list|disable` as an operator uses them: the built binary on the test database.
@Suite("shop coupons")
struct CouponsCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func createListAndDisableACoupon() throws {
        let app = try TestAPI()
        try app.orderSeed([("A", "10.00", 5)])
        let (created, createOutput) = try CLI.run(["coupons", "create", "spring20", "--amount-off", "20", "--min-spend", "100",
                                                  "--starts", "2026-01-01", "--ends", "2026-12-31", "--max-uses", "100",
                                                  "--per-user", "1", "--category", "花束"], database: app.shop.config)
        #expect(created == 0, "\(createOutput)")
        #expect(createOutput.contains("SPRING20") && createOutput.contains("花束 满100减20元"), "\(createOutput)")
        let coupon = try #require(try app.shop.coupons.list().first)
        #expect(coupon.rule == .amountOff(cents: 2_000) && coupon.minSpendCents == 10_000)
        #expect(coupon.maxUses == 100 && coupon.perUserLimit == 1 && coupon.categoryPath == "花束")
        #expect(coupon.startsAt == Date(timeIntervalSince1970: 1_767_196_800))  // 2026-01-01 00:00 China time
        #expect(coupon.endsAt == Date(timeIntervalSince1970: 1_798_732_800))  // the end of 2026-12-31, China time

        let (percent, percentOutput) = try CLI.run(["coupons", "create", "TEN-OFF", "--percent-off", "10", "--description", "全场9折"],
                                                  database: app.shop.config)
        #expect(percent == 0, "\(percentOutput)")
        let (listed, list) = try CLI.run(["coupons", "list"], database: app.shop.config)
        #expect(listed == 0, "\(list)")
        for needed in ["SPRING20", "TEN-OFF", "10% off", "20.00 off", "0/100", "全场9折", "2 coupons"] {
            #expect(list.contains(needed), "missing \(needed) in:\n\(list)")
        }
        let (disabled, disableOutput) = try CLI.run(["coupons", "disable", "ten-off"], database: app.shop.config)
        #expect(disabled == 0, "\(disableOutput)")
        #expect(disableOutput.contains("disabled"), "\(disableOutput)")
        #expect(try app.shop.coupons.list().first { $0.code == "TEN-OFF" }?.disabledAt != nil)
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func badInputExitsNonZeroWithAClearMessage() throws {
        let app = try TestAPI()
        let config = app.shop.config
        let usage: [([String], String)] = [
            (["coupons", "create", "X1X"], "exactly one of --percent-off N or --amount-off YUAN"),
            (["coupons", "create", "X1X", "--percent-off", "10", "--amount-off", "5"], "exactly one of"),
            (["coupons", "create", "X1X", "--percent-off", "100"], "--percent-off must be a whole number from 1 to 99"),
            (["coupons", "create", "X1X", "--amount-off", "1.234"], "--amount-off must be"),
            (["coupons", "create", "X1X", "--amount-off", "5", "--ends", "tomorrow"], "--ends must be a date"),
            (["coupons", "create", "X1X", "--amount-off", "5", "--max-uses", "0"], "--max-uses must be a whole number above 0"),
            (["coupons", "create", "--amount-off", "5"], "expected 1 argument"),
        ]
        for (arguments, message) in usage {
            let (status, output) = try CLI.run(arguments, database: config)
            #expect(status == 2, "\(arguments): \(output)")
            #expect(output.contains(message), "\(arguments): \(output)")
        }
        let failures: [([String], String)] = [
            (["coupons", "create", "a b", "--amount-off", "5"], "code must be 3 to 32 letters, digits, - or _."),
            (["coupons", "create", "X1X", "--amount-off", "5", "--category", "没有"], "no category has the path 没有"),
            (["coupons", "create", "X1X", "--amount-off", "5", "--starts", "2026-12-02", "--ends", "2026-12-01"], "starts"),
            (["coupons", "disable", "NOSUCH"], "no coupon has the code NOSUCH"),
        ]
        for (arguments, message) in failures {
            let (status, output) = try CLI.run(arguments, database: config)
            #expect(status == 1, "\(arguments): \(output)")
            #expect(output.contains(message), "\(arguments): \(output)")
        }
        let (first, _) = try CLI.run(["coupons", "create", "TWICE", "--amount-off", "5"], database: config)
        let (second, output) = try CLI.run(["coupons", "create", "twice", "--percent-off", "5"], database: config)
        #expect(first == 0 && second == 1)
        #expect(output.contains("a coupon with the code TWICE exists already"), "\(output)")
        #expect(try app.shop.coupons.list().count == 1)
    }
}
