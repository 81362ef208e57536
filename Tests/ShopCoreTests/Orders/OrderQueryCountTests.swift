import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Orders: a list costs the same statements whatever its length")
struct OrderQueryCountTests {
    /// Places `count` orders of two lines each, paid, the first `refunded` ones moved to refunded.
    private func place(_ count: Int, refunded: Int, _ shop: TestShop, _ buyer: OrderBuyer, skus: [SKUID], from first: Int) throws -> [Order] {
        try (first..<first + count).map { n in
            let order = try shop.orderBuyNow(buyer, [(skus[0], 1), (skus[1], 2)], key: "k\(n)").order
            try shop.orderMarkPaid(order.id)
            if n - first < refunded {
                try shop.pool.write { db in _ = try db.run("UPDATE orders SET status = \(OrderStatus.refunded) WHERE id = \(order.id)") }
            }
            return order
        }
    }

    @Test func aPageOfOrdersAndTheWorklistCostAConstantNumberOfStatements() throws {
        let shop = try TestShop()
        let seeded = try shop.orderSeed([OrderSeedSKU(code: "A"), OrderSeedSKU(code: "B")])
        let skus = [try #require(seeded["A"]), try #require(seeded["B"])]
        let buyer = try shop.orderBuyer("13900000001")
        let (counted, database) = try shop.counted()
        let page = try PageRequest(page: 1, perPage: 100)

        let day = try #require(try place(1, refunded: 1, shop, buyer, skus: skus, from: 0)[0].delivery.date)
        database.reset()
        #expect(try counted.orders.orders(for: buyer.user, status: nil, page: page).items.count == 1)
        let onePage = database.statements
        database.reset()
        #expect(try counted.orders.toDeliver(on: day, statuses: [.paid, .refunded]).count == 1)
        let oneDay = database.statements

        _ = try place(12, refunded: 3, shop, buyer, skus: skus, from: 1)
        database.reset()
        let orders = try counted.orders.orders(for: buyer.user, status: nil, page: page).items
        #expect(orders.count == 13)
        #expect(database.statements == onePage)
        #expect(onePage == 5) // count, page, lines, refunds, after-sale links
        database.reset()
        #expect(try counted.orders.toDeliver(on: day, statuses: [.paid, .refunded]).count == 13)
        #expect(database.statements == oneDay)

        // Read in one go, each order still has its own lines, as a read of that order alone gives them.
        for order in orders {
            #expect(order.items.count == 2)
            #expect(try shop.shop.orders.order(order.id, for: buyer.user) == order)
        }
    }

    @Test func aCheckoutWaitsForThreeAnswersTheLastWithTheCommitWhateverItsLinesAndAnswersTheOrderAsStored() throws {
        let shop = try TestShop()
        let seeded = try shop.orderSeed([OrderSeedSKU(code: "A"), OrderSeedSKU(code: "B")])
        let skus = [try #require(seeded["A"]), try #require(seeded["B"])]
        let buyer = try shop.orderBuyer("13900000001")
        let (counted, database) = try shop.counted()
        let postgres = shop.pool.dialect == .postgresql
        let lock = postgres ? 1 : 0
        // PostgreSQL writes the order, its lines and its key in one statement that travels with the
        // COMMIT; SQLite inserts the order, then its lines and its key (held: they travel with the commit)
        let orderWrites = postgres ? 1 : 3

        // the opening read (key, unpaid orders, address), the zone with the stock taken and the line's
        // price (one round trip), the order inserted and returned
        let placed = try counted.orders.checkout(
            CheckoutRequest(addressID: buyer.address, note: nil, items: [.init(skuID: skus[0], quantity: 2)]),
            idempotencyKey: try IdempotencyKey("one"), for: buyer.user, clientIP: buyer.ip).order
        #expect(database.answered == 3)
        #expect(database.ending == (postgres ? 1 : 0))
        #expect(database.statements == 3 + orderWrites + lock)
        #expect(try shop.shop.orders.order(placed.id, for: buyer.user) == placed)

        // each more line is one more statement (its stock, taken in SKU order) but no more round trip:
        // it travels with the zone and the first line's stock; its row still travels in one
        database.reset()
        let twoLines = try counted.orders.checkout(
            CheckoutRequest(addressID: buyer.address, note: nil, items: [.init(skuID: skus[1], quantity: 1), .init(skuID: skus[0], quantity: 3)]),
            idempotencyKey: try IdempotencyKey("two"), for: buyer.user, clientIP: buyer.ip).order
        #expect(database.answered == 3)
        #expect(database.statements == 4 + orderWrites + lock)
        #expect(twoLines.items.map(\.skuID) == [skus[1], skus[0]])
        #expect(try shop.shop.orders.order(twoLines.id, for: buyer.user) == twoLines)

        // a replay: the opening read finds the key, and the order is read as stored
        database.reset()
        let replay = try counted.orders.checkout(
            CheckoutRequest(addressID: buyer.address, note: nil, items: [.init(skuID: skus[0], quantity: 2)]),
            idempotencyKey: try IdempotencyKey("one"), for: buyer.user, clientIP: buyer.ip)
        #expect(replay.replayed)
        #expect(replay.order == placed)
    }

    @Test func aLongListIsReadInChunksOfBoundValues() throws {
        let shop = try TestShop()
        let seeded = try shop.orderSeed([OrderSeedSKU(code: "A"), OrderSeedSKU(code: "B")])
        let skus = [try #require(seeded["A"]), try #require(seeded["B"])]
        let buyer = try shop.orderBuyer("13900000001")
        let placed = try place(5, refunded: 0, shop, buyer, skus: skus, from: 0)
        let database = CountingDatabase(shop.pool)

        let rows = try database.read { db in
            try db.query(chunking: placed.map(\.id), chunkSize: 2) { list in
                "SELECT order_id, quantity FROM order_items WHERE order_id IN (\(list)) ORDER BY id"
            }
        }
        #expect(database.statements == 3)
        #expect(try rows.map { try $0.decode("order_id", as: OrderID.self) } == placed.flatMap { [$0.id, $0.id] })
        #expect(try database.read { db in try db.query(chunking: [OrderID]()) { "SELECT 1 WHERE 0 IN (\($0))" } }.isEmpty)
        #expect(database.statements == 3)
    }
}
