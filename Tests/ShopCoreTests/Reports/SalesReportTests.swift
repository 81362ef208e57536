import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Reports: sales by day")
struct SalesReportTests {
    /// An order placed and paid with Alipay now (the fake gateway's payment and notification).
    func paidOrder(_ g: GatewayScenario, quantity: Int) throws -> Order {
        let order = try g.s.placeOrder(quantity: quantity)
        let intent = try g.s.payments.start(order.id, provider: .alipay, for: g.s.buyer)
        try g.alipay.openApp(orderString: try #require(intent.payParams["order_string"]))
        _ = try g.s.payments.receive(provider: "alipay", headers: [:], body: try g.alipay.pay(order.number))
        #expect(try g.s.order(order.id).status == .paid)
        return order
    }

    func day(_ text: String) throws -> CalendarDay { try #require(CalendarDay(text)) }

    /// The test clock starts at 2026-11-30 08:00 UTC; this moves it to `utc` (later only).
    func move(_ g: GatewayScenario, to utc: String) throws {
        let target = try #require(ISO8601DateFormatter().date(from: utc))
        g.s.test.clock.advance(by: target.timeIntervalSince(g.s.test.clock.now))
    }

    /// Days are Beijing days: 15:59 UTC is 23:59 on the same day, 16:01 UTC is 00:01 on the next.
    /// A refund counts on the day the provider confirmed it, its order's payment stays on its own day.
    @Test func ordersCountOnTheirPaidDayInTheShopsZoneAndRefundsOnTheirOwnDay() throws {
        let g = try GatewayScenario()
        #expect(g.s.test.config.app.timezone == "Asia/Shanghai")
        try move(g, to: "2026-12-01T15:59:00Z")
        let lateEvening = try paidOrder(g, quantity: 2)
        try move(g, to: "2026-12-01T16:01:00Z")
        let afterMidnight = try paidOrder(g, quantity: 3)
        _ = try g.s.placeOrder(quantity: 5) // never paid: not a sale
        try move(g, to: "2026-12-02T03:00:00Z")
        _ = try g.s.shop.orders.cancel(lateEvening.id, for: g.s.buyer)
        try g.s.payments.processRefunds()
        #expect(try g.s.order(lateEvening.id).status == .refunded)

        let report = try g.s.shop.reports.sales(from: try day("2026-11-30"), to: try day("2026-12-03"))
        #expect(lateEvening.totalCents == 2 * PaymentScenario.price)
        #expect(report.days.map(\.date.description) == ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"])
        #expect(report.days.map(\.figures) == [
            SalesFigures(),
            SalesFigures(orders: 1, items: 2, paidCents: lateEvening.totalCents, refundedCents: 0),
            SalesFigures(orders: 1, items: 3, paidCents: afterMidnight.totalCents,
                         refundedCents: lateEvening.totalCents),
            SalesFigures(),
        ])
        #expect(report.total == SalesFigures(orders: 2, items: 5, paidCents: lateEvening.totalCents + afterMidnight.totalCents,
                                             refundedCents: lateEvening.totalCents))
    }

    @Test func withoutARangeTheReportCoversTheLastSevenDaysEndingTodayInTheShopsZone() throws {
        let g = try GatewayScenario()
        try move(g, to: "2026-12-01T16:30:00Z") // 00:30 on 12-02 in Beijing
        let report = try g.s.shop.reports.sales(from: nil, to: nil)
        #expect(report.from.description == "2026-11-26" && report.to.description == "2026-12-02")
        #expect(report.days.count == 7 && report.total == SalesFigures())
    }

    @Test func aBackwardOrTooLongRangeIsRefusedNamingTheField() throws {
        let g = try GatewayScenario()
        let reports = g.s.shop.reports
        #expect(throws: ValidationError.self) { try reports.sales(from: try day("2026-12-02"), to: try day("2026-12-01")) }
        do {
            _ = try reports.sales(from: try day("2026-01-01"), to: try day("2027-01-02"))
            Issue.record("367 days were accepted")
        } catch let error as ValidationError {
            #expect(error.field == "to")
        }
        let longest = try reports.sales(from: try day("2026-01-01"), to: try day("2027-01-01"))
        #expect(longest.days.count == 366 && longest.days.last?.date.description == "2027-01-01")
    }
}
