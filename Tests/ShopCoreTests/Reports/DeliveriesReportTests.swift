import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Reports: one day's deliveries")
struct DeliveriesReportTests {
    static func day(_ text: String) -> CalendarDay { CalendarDay(text)! }

    @discardableResult
    func order(_ shop: TestShop, _ buyer: OrderBuyer, _ sku: SKUID, _ date: String, _ slot: DeliverySlot?, paid: Bool) throws -> Order {
        let id = try shop.shop.orders.checkout(
            CheckoutRequest(addressID: buyer.address, items: [.init(skuID: sku, quantity: 1)],
                            delivery: DeliveryRequest(date: Self.day(date), slot: slot)),
            idempotencyKey: try IdempotencyKey(UUID().uuidString), for: buyer.user, clientIP: "127.0.0.1").order
        if paid { try shop.orderMarkPaid(id.id) }
        return id
    }

    /// Paid orders of the day by slot and status; unpaid orders and other days' are not deliveries.
    @Test func theDaysPaidOrdersAreCountedBySlotAndStatus() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        try order(shop, buyer, sku, "2026-12-03", .morning, paid: true)
        try order(shop, buyer, sku, "2026-12-03", .morning, paid: true)
        let shipped = try order(shop, buyer, sku, "2026-12-03", .morning, paid: true)
        _ = try shop.shop.orders.ship(number: shipped.number, carrier: "顺丰", trackingNumber: "SF1", by: .commandLine(user: "test"))
        try order(shop, buyer, sku, "2026-12-03", .evening, paid: true)
        try order(shop, buyer, sku, "2026-12-03", nil, paid: true)
        try order(shop, buyer, sku, "2026-12-03", .afternoon, paid: false)
        try order(shop, buyer, sku, "2026-12-04", .afternoon, paid: true)

        let report = try shop.shop.reports.deliveries(on: Self.day("2026-12-03"))
        #expect(report.counts == [
            DeliveryCount(slot: .morning, status: .paid, orders: 2),
            DeliveryCount(slot: .morning, status: .shipped, orders: 1),
            DeliveryCount(slot: .evening, status: .paid, orders: 1),
            DeliveryCount(slot: nil, status: .paid, orders: 1),
        ])
        #expect(report.bySlot.map(\.slot) == [.morning, .afternoon, .evening, nil])
        #expect(report.bySlot.map(\.orders) == [3, 0, 1, 1])
        #expect(report.total == 5)
        #expect(try shop.shop.reports.deliveries(on: Self.day("2026-12-05")).total == 0)
    }
}
