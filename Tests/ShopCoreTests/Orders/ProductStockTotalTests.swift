import Dispatch
import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

/// A product's `total_stock` (what lists sort and filter sold-out products by) is the stock of its
/// SKUs on sale. On PostgreSQL a stock-only change sums the total again without the product's
/// prices (migration 0043), and a sale moves it by its difference unless its transaction summed the
/// total already (0049); both engines must keep it equal to the recomputed sum, also when one
/// statement changes one SKU's price and another's stock, in either row order, and under racing sales.
@Suite("Orders: a product's total stock follows its SKUs through checkouts and cancels")
struct ProductStockTotalTests {
    private func totals(_ shop: TestShop) throws -> [(stored: Int64, recomputed: Int64, price: Int64)] {
        try shop.pool.read { db in
            try db.query("""
                SELECT p.total_stock,
                       (SELECT COALESCE(SUM(CASE WHEN s.status = 'on_sale' THEN s.stock ELSE 0 END), 0) FROM skus s
                        WHERE s.product_id = p.id) AS recomputed,
                       p.price_cents
                FROM products p WHERE p.code IN ('P', 'P-D') ORDER BY p.code
                """).map { (try $0.decode("total_stock"), try $0.decode("recomputed"), try $0.decode("price_cents")) }
        }
    }

    @Test func checkoutsCancelsAndASellOutKeepTheTotalEqualToTheSKUsOnSale() throws {
        let shop = try TestShop()
        let seeded = try shop.orderSeed([
            OrderSeedSKU(code: "A", product: "P", price: "10.00", stock: 5),
            OrderSeedSKU(code: "B", product: "P", price: "20.00", stock: 7),
            OrderSeedSKU(code: "C", product: "P", price: "5.00", stock: 11),
            OrderSeedSKU(code: "D", price: "30.00", stock: 2),
        ])
        let (a, b, d) = (try #require(seeded["A"]), try #require(seeded["B"]), try #require(seeded["D"]))
        let buyer = try shop.orderBuyer("13900000001")
        // C taken off sale: its stock leaves the total, its price the product's (a full recompute)
        #expect(try totals(shop).map(\.stored) == [23, 2])
        try shop.pool.write { db in _ = try db.run("UPDATE skus SET status = 'off_sale' WHERE code = 'C'") }
        #expect(try totals(shop).map(\.stored) == [12, 2])
        #expect(try totals(shop).map(\.price) == [1_000, 3_000])

        let first = try shop.orderBuyNow(buyer, [(a, 2), (b, 3)], key: "one").order
        #expect(try totals(shop).map(\.stored) == [7, 2])
        // D sells out: the product reads as sold out, and its price stays
        _ = try shop.orderBuyNow(buyer, [(d, 2)], key: "two")
        #expect(try totals(shop).map(\.stored) == [7, 0])
        #expect(try totals(shop).map(\.price) == [1_000, 3_000])
        // a refused checkout (B short) changes nothing, though A's stock was asked first
        #expect(throws: OrderError.self) { try shop.orderBuyNow(buyer, [(a, 1), (b, 9)], key: "three") }
        #expect(try totals(shop).map(\.stored) == [7, 0])
        _ = try shop.shop.orders.cancel(first.id, for: buyer.user)
        #expect(try totals(shop).map(\.stored) == [12, 0])
        #expect(try shop.orderStock(a) == 5 && shop.orderStock(b) == 7)
        for total in try totals(shop) { #expect(total.stored == total.recomputed) }
    }

    @Test func oneStatementChangingOneSKUsPriceAndAnothersStockCountsTheStockOnce() throws {
        let shop = try TestShop()
        _ = try shop.orderSeed([
            OrderSeedSKU(code: "A", product: "P", price: "10.00", stock: 5),
            OrderSeedSKU(code: "B", product: "P", price: "20.00", stock: 7),
        ])
        // what an import's one UPDATE of every changed SKU does: A's price (a full refresh of the
        // product) and B's stock (the stock-only path), each row's trigger running after both rows
        try shop.pool.write { db in
            _ = try db.run("""
                UPDATE skus SET price_cents = CASE code WHEN 'A' THEN 900 ELSE price_cents END,
                                stock = CASE code WHEN 'B' THEN 8 ELSE stock END
                WHERE code IN ('A', 'B')
                """)
        }
        #expect(try totals(shop).first?.stored == 13)
        // the other way round: A's stock (the difference) written before B's price (the full refresh)
        try shop.pool.write { db in
            _ = try db.run("""
                UPDATE skus SET price_cents = CASE code WHEN 'B' THEN 1900 ELSE price_cents END,
                                stock = CASE code WHEN 'A' THEN 3 ELSE stock END
                WHERE code IN ('A', 'B')
                """)
        }
        #expect(try totals(shop).first?.stored == 11)
        // a refresh, then in the same transaction one statement changing both stocks
        try shop.pool.write { db in
            _ = try db.run("UPDATE skus SET price_cents = 800 WHERE code = 'A'")
            _ = try db.run("UPDATE skus SET stock = stock + 2 WHERE code IN ('A', 'B')")
        }
        #expect(try totals(shop).first?.stored == 15)
        for total in try totals(shop) { #expect(total.stored == total.recomputed) }
        try shop.pool.write { db in _ = try db.run("UPDATE skus SET stock = 0 WHERE code IN ('A', 'B')") }
        #expect(try totals(shop).first?.stored == 0, "every SKU at zero is a sold-out product")
    }

    @Test func racingSalesOfTwoSKUsOfOneProductEachCountOnce() throws {
        let shop = try TestShop { $0.orders.maxUnpaidPerUser = 20 }
        let seeded = try shop.orderSeed([
            OrderSeedSKU(code: "A", product: "P", price: "10.00", stock: 40),
            OrderSeedSKU(code: "B", product: "P", price: "20.00", stock: 40),
        ])
        let (a, b) = (try #require(seeded["A"]), try #require(seeded["B"]))
        let buyers = try (0..<8).map { try shop.orderBuyer(String(format: "1390000%04d", $0)) }
        let failures = OrderOutcomes()
        DispatchQueue.concurrentPerform(iterations: 32) { index in
            do {
                _ = try shop.orderBuyNow(buyers[index % buyers.count], [index % 2 == 0 ? (a, 1) : (b, 2)], key: "race-\(index)")
            } catch {
                failures.record("\(error)")
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(try shop.orderStock(a) == 24 && shop.orderStock(b) == 8)
        let total = try #require(try totals(shop).first)
        #expect(total.stored == 32 && total.recomputed == 32)
    }
}
