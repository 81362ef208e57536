import Dispatch
import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

/// `orders.slot_capacity` and `orders.peak_dates`, on the test shop's manual clock (2026-11-30
/// 16:00 in Shanghai, past the same-day cutoff: the first day offered is 1 December).
@Suite("Orders: slot capacity and peak days")
struct SlotCapacityTests {
    static func day(_ text: String) -> CalendarDay { CalendarDay(text)! }

    func buy(_ shop: TestShop, _ buyer: OrderBuyer, _ sku: SKUID, key: String, _ delivery: DeliveryRequest) throws -> Order {
        try shop.shop.orders.checkout(CheckoutRequest(addressID: buyer.address, items: [.init(skuID: sku, quantity: 1)], delivery: delivery),
                                      idempotencyKey: try IdempotencyKey(key), for: buyer.user, clientIP: "127.0.0.1").order
    }

    func taken(_ shop: TestShop, _ date: String, _ slot: DeliverySlot) throws -> Int64 {
        try shop.pool.read { db in
            try db.scalarInt("SELECT taken FROM delivery_slot_load WHERE delivery_date = \(date) AND delivery_slot = \(slot)") ?? 0
        }
    }

    /// 50 buyers race for the evening of 3 December, which takes 10 orders: exactly 10 orders are
    /// placed, the 40 others are refused `DeliveryUnavailable` and leave no order and no stock taken.
    @Test func fiftyCheckoutsIntoASlotOfTenPlaceExactlyTen() throws {
        let shop = try TestShop {
            $0.orders.slotCapacity = 10
            $0.database.readers = 4
        }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 100)])["A"])
        let buyers = try (0..<50).map { try shop.orderBuyer(String(format: "1390000%04d", $0)) }
        let outcomes = OrderOutcomes()
        race(50) { index in
            do {
                let order = try buy(shop, buyers[index], sku, key: "race-\(index)",
                                    DeliveryRequest(date: Self.day("2026-12-03"), slot: .evening))
                outcomes.record(order.delivery.slot == .evening ? "placed" : "wrong: \(order.delivery)")
            } catch let refused as DeliveryUnavailable {
                outcomes.record(refused.field == "delivery_slot" && refused.earliest == Self.day("2026-12-01") ? "full" : "wrong: \(refused)")
            } catch {
                outcomes.record("error: \(error)")
            }
        }
        #expect(outcomes.count("placed") == 10, "\(outcomes.all.filter { $0 != "placed" && $0 != "full" })")
        #expect(outcomes.count("full") == 40)
        #expect(try taken(shop, "2026-12-03", .evening) == 10)
        #expect(try shop.orderRowCounts()[0] == 10)
        #expect(try shop.orderStock(sku) == 90)
    }

    @Test func aFullSlotIsNoLongerOfferedAndAnOrderWithoutASlotTakesTheFirstWithRoom() throws {
        let shop = try TestShop { $0.orders.slotCapacity = 1 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let first = try shop.orderBuyer("13900000001"), second = try shop.orderBuyer("13900000002"),
            third = try shop.orderBuyer("13900000003")
        _ = try buy(shop, first, sku, key: "k1", DeliveryRequest(date: Self.day("2026-12-03"), slot: .morning))
        let offered = try shop.shop.orders.deliveryDays(for: [sku]).first { $0.date == Self.day("2026-12-03") }
        #expect(offered?.slots == [.afternoon, .evening])
        // no slot asked: the day's first slot with room, and that place is taken
        let anyTime = try buy(shop, second, sku, key: "k2", DeliveryRequest(date: Self.day("2026-12-03")))
        #expect(anyTime.delivery.slot == .afternoon)
        #expect(throws: DeliveryUnavailable(field: "delivery_slot", earliest: Self.day("2026-12-01"))) {
            try buy(shop, third, sku, key: "k3", DeliveryRequest(date: Self.day("2026-12-03"), slot: .morning))
        }
        _ = try buy(shop, third, sku, key: "k4", DeliveryRequest(date: Self.day("2026-12-03")))
        // the florist sees the places taken beside the capacity
        let report = try shop.shop.reports.deliveries(on: Self.day("2026-12-03"))
        #expect(report.capacity == 1 && report.taken == [.morning: 1, .afternoon: 1, .evening: 1])
        // all three slots of 3 December taken: the day is gone from the dates
        #expect(try shop.shop.orders.deliveryDays(for: [sku]).contains { $0.date == Self.day("2026-12-03") } == false)
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-01"))) {
            try buy(shop, first, sku, key: "k5", DeliveryRequest(date: Self.day("2026-12-03")))
        }
    }

    @Test func aCancelledOrRefundingOrderGivesItsPlaceBackOnce() throws {
        let shop = try TestShop { $0.orders.slotCapacity = 1 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let first = try shop.orderBuyer("13900000001"), second = try shop.orderBuyer("13900000002")
        let evening = DeliveryRequest(date: Self.day("2026-12-03"), slot: .evening)
        let unpaid = try buy(shop, first, sku, key: "k1", evening)
        #expect(throws: DeliveryUnavailable.self) { try buy(shop, second, sku, key: "k2", evening) }
        _ = try shop.shop.orders.cancel(unpaid.id, for: first.user)
        #expect(try taken(shop, "2026-12-03", .evening) == 0)
        let paid = try buy(shop, second, sku, key: "k3", evening)
        try shop.orderMarkPaid(paid.id)
        #expect(try taken(shop, "2026-12-03", .evening) == 1)
        _ = try shop.shop.orders.cancel(paid.id, for: second.user)
        #expect(try shop.shop.orders.order(paid.id, for: second.user).status == .refunding)
        #expect(try taken(shop, "2026-12-03", .evening) == 0)
        // a place given back is given back once: the flag went with it
        try shop.pool.write { db in try SlotLoadStore().release(order: paid.id, db) }
        _ = try buy(shop, first, sku, key: "k4", evening)
        #expect(try taken(shop, "2026-12-03", .evening) == 1)
    }

    @Test func withoutACapacityNoPlaceIsCountedAndAnOrderWithoutASlotKeepsNone() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try buy(shop, buyer, sku, key: "k1", DeliveryRequest(date: Self.day("2026-12-03")))
        #expect(order.delivery.slot == nil && order.deliveryFeeCents == 0)
        #expect(try shop.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM delivery_slot_load") } == 0)
    }

    @Test func onAPeakDayNothingGoesOutTheSameDayAndThePeakFeeIsInTheTotal() throws {
        let shop = try TestShop {
            $0.orders.peakDates = [MonthDay("12-02")!]
            $0.orders.peakFeeCents = 2_000
        }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", price: "99.00")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        // ordered the day before: delivered on the peak day, at the peak fee
        let early = try buy(shop, buyer, sku, key: "k1", DeliveryRequest(date: Self.day("2026-12-02"), slot: .morning))
        #expect(early.deliveryFeeCents == 2_000 && early.totalCents == 11_900)
        let ordinary = try buy(shop, buyer, sku, key: "k2", DeliveryRequest(date: Self.day("2026-12-03")))
        #expect(ordinary.deliveryFeeCents == 0 && ordinary.totalCents == 9_900)
        // 2 December, 08:00 in Shanghai: before the cutoff, but a peak day takes no same-day orders
        shop.clock.advance(by: 40 * 3_600)
        #expect(try shop.shop.orders.deliveryDays(for: [sku]).first?.date == Self.day("2026-12-03"))
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-03"))) {
            try buy(shop, buyer, sku, key: "k3", DeliveryRequest(date: Self.day("2026-12-02")))
        }
    }

    @Test func peakDatesAreDaysOfTheYearAndABadOneIsRefused() throws {
        #expect(MonthDay("02-14")?.description == "02-14" && MonthDay("02-29") != nil)
        for bad in ["02-30", "13-01", "2-14", "02/14", "00-10", "2026-02-14"] { #expect(MonthDay(bad) == nil, "\(bad)") }
        #expect(Config().orders.peakDates.map(\.description) == ["02-14", "05-20"])
    }
}
