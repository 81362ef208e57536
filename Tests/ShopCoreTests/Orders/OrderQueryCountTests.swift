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

    @Test func aCheckoutWaitsForTwoAnswersTheLastWithTheCommitOnceTheNodeKnowsItsAddressWhateverItsLines() throws {
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

        // an address this node has not seen: the opening read (key, unpaid orders, address) with the
        // stock taken and the line's price (one round trip), then the address's zone, then the order
        // inserted and returned
        let placed = try counted.orders.checkout(
            CheckoutRequest(addressID: buyer.address, note: nil, items: [.init(skuID: skus[0], quantity: 2)]),
            idempotencyKey: try IdempotencyKey("one"), for: buyer.user, clientIP: buyer.ip).order
        #expect(database.answered == 3)
        #expect(database.ending == (postgres ? 1 : 0))
        #expect(database.statements == 3 + orderWrites + lock)
        #expect(try shop.shop.orders.order(placed.id, for: buyer.user) == placed)

        // the address seen: its zone travels with the opening read; each more line is one more
        // statement (its stock, taken in SKU order) but no more round trip
        database.reset()
        let twoLines = try counted.orders.checkout(
            CheckoutRequest(addressID: buyer.address, note: nil, items: [.init(skuID: skus[1], quantity: 1), .init(skuID: skus[0], quantity: 3)]),
            idempotencyKey: try IdempotencyKey("two"), for: buyer.user, clientIP: buyer.ip).order
        #expect(database.answered == 2)
        #expect(database.ending == (postgres ? 1 : 0))
        #expect(database.statements == 4 + orderWrites + lock)
        #expect(twoLines.items.map(\.skuID) == [skus[1], skus[0]])
        #expect(try shop.shop.orders.order(twoLines.id, for: buyer.user) == twoLines)

        // from the cart: its lines travel with the opening read, their stock in one more round trip
        try counted.carts.add(skus[0], quantity: 1, for: buyer.user)
        database.reset()
        let fromCart = try counted.orders.checkout(CheckoutRequest(addressID: buyer.address, note: nil),
                                                   idempotencyKey: try IdempotencyKey("three"), for: buyer.user, clientIP: buyer.ip).order
        #expect(database.answered == 3)
        #expect(fromCart.items.map(\.skuID) == [skus[0]])
        #expect(try shop.shop.carts.cart(of: buyer.user).lines.isEmpty)

        // a replay: the opening read finds the key, its stock goes back with the rollback, and the
        // order is read as stored
        let stockBefore = try shop.pool.read { db in try db.scalarInt("SELECT stock FROM skus WHERE id = \(skus[0])") }
        database.reset()
        let replay = try counted.orders.checkout(
            CheckoutRequest(addressID: buyer.address, note: nil, items: [.init(skuID: skus[0], quantity: 2)]),
            idempotencyKey: try IdempotencyKey("one"), for: buyer.user, clientIP: buyer.ip)
        #expect(replay.replayed)
        #expect(replay.order == placed)
        #expect(try shop.pool.read { db in try db.scalarInt("SELECT stock FROM skus WHERE id = \(skus[0])") } == stockBefore)
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
