import Dispatch
import Foundation
import SQL
import SQLite
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Orders: racing buyers")
struct OrderConcurrencyTests {
    @Test func twentyBuyersOnFiveUnitsMakeExactlyFiveOrdersAndNeverOversell() throws {
        let shop = try TestShop { $0.database.readers = 4 }
        let skus = try shop.orderSeed([OrderSeedSKU(code: "HOT", stock: 5), OrderSeedSKU(code: "COLD", stock: 50)])
        let hot = try #require(skus["HOT"]), cold = try #require(skus["COLD"])
        let buyers = try (0..<20).map { try shop.orderBuyer(String(format: "1390000%04d", $0)) }
        let outcomes = OrderOutcomes()
        let lowest = OrderOutcomes()
        let raceOver = OrderOutcomes()

        // A watcher reads the SKU row while the buyers race: it must never see a negative stock.
        let watcherDone = DispatchSemaphore(value: 0)
        Thread {
            var minimum = Int64.max
            while raceOver.all.isEmpty {
                if let stock = try? shop.orderStock(hot) { minimum = min(minimum, stock) }
            }
            lowest.record(String(minimum))
            watcherDone.signal()
        }.start()

        DispatchQueue.concurrentPerform(iterations: buyers.count) { index in
            do {
                let checkout = try shop.orderBuyNow(buyers[index], [(hot, 1), (cold, 1)], key: "race-\(index)")
                outcomes.record(checkout.replayed ? "replayed" : "ordered")
            } catch OrderError.outOfStock(let sku, _, _) {
                outcomes.record(sku == hot ? "outOfStock" : "outOfStock-wrong-sku")
            } catch {
                outcomes.record("error: \(error)")
            }
        }
        raceOver.record("over")
        watcherDone.wait()

        #expect(outcomes.count("ordered") == 5, "\(outcomes.all)")
        #expect(outcomes.count("outOfStock") == 15, "\(outcomes.all)")
        #expect(try shop.orderStock(hot) == 0)
        #expect(try shop.orderStock(cold) == 45, "a refused order must give back nothing it did not keep")
        #expect(Int64(lowest.all.first ?? "-1") ?? -1 >= 0, "stock seen below zero: \(lowest.all)")
        let (orders, hotUnits) = try shop.pool.read { db in
            (try db.scalarInt("SELECT COUNT(*) FROM orders") ?? -1,
             try db.scalarInt("SELECT COALESCE(SUM(quantity), 0) FROM order_items WHERE sku_id = \(hot)") ?? -1)
        }
        #expect(orders == 5)
        #expect(hotUnits == 5)
    }

    @Test func oneUserRacingWithDistinctKeysAlsoStopsAtTheStock() throws {
        let shop = try TestShop { $0.orders.maxUnpaidPerUser = 20 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "HOT", stock: 5)])["HOT"])
        let buyer = try shop.orderBuyer("13900000001")
        let outcomes = OrderOutcomes()

        DispatchQueue.concurrentPerform(iterations: 20) { index in
            do {
                try shop.orderBuyNow(buyer, [(sku, 1)], key: "race-\(index)")
                outcomes.record("ordered")
            } catch OrderError.outOfStock {
                outcomes.record("outOfStock")
            } catch {
                outcomes.record("error: \(error)")
            }
        }

        #expect(outcomes.count("ordered") == 5, "\(outcomes.all)")
        #expect(outcomes.count("outOfStock") == 15, "\(outcomes.all)")
        #expect(try shop.orderStock(sku) == 0)
        #expect(try shop.shop.orders.orders(for: buyer.user, status: nil, page: try PageRequest()).total == 5)
    }

    @Test func oneKeySentTwentyTimesAtOnceMakesOneOrder() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 50)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let outcomes = OrderOutcomes()

        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            do {
                let checkout = try shop.orderBuyNow(buyer, [(sku, 2)], key: "double-click")
                outcomes.record("\(checkout.replayed ? "replayed" : "ordered") \(checkout.order.number)")
            } catch {
                outcomes.record("error: \(error)")
            }
        }

        #expect(outcomes.all.filter { $0.hasPrefix("ordered") }.count == 1, "\(outcomes.all)")
        #expect(outcomes.all.filter { $0.hasPrefix("replayed") }.count == 19, "\(outcomes.all)")
        #expect(Set(outcomes.all.map { $0.split(separator: " ").last ?? "" }).count == 1, "\(outcomes.all)")
        #expect(try shop.orderStock(sku) == 48)
        #expect(try shop.orderRowCounts() == [1, 1, 1])
    }
}
