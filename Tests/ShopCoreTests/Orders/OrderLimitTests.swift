import Foundation
import Localization
import SQLite
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Orders: item cap and unpaid orders per buyer")
struct OrderLimitTests {
    @Test func buyNowPastTheCartCapIsRefusedAndTakesNoStock() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "A", stock: 500), OrderSeedSKU(code: "B", stock: 500)])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        let buyer = try shop.orderBuyer("13900000001")

        #expect(throws: OrderError.itemLimitExceeded(max: 99)) { try shop.orderBuyNow(buyer, [(a, 99), (b, 1)], key: "k1") }
        #expect(throws: OrderError.itemLimitExceeded(max: 99)) { try shop.orderBuyNow(buyer, [(a, 50), (b, 50)], key: "k2") }
        #expect(try shop.orderStock(a) == 500)
        #expect(try shop.orderStock(b) == 500)
        #expect(try shop.orderRowCounts() == [0, 0, 0])

        let atTheCap = try shop.orderBuyNow(buyer, [(a, 98), (b, 1)], key: "k3")
        #expect(atTheCap.order.items.reduce(0) { $0 + $1.quantity } == 99)
    }

    @Test func cartCheckoutPastALoweredCapIsRefusedAndKeepsTheCart() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 500)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.carts.add(sku, quantity: 60, for: buyer.user)
        let lowered = OrderService(pool: shop.pool, settings: shop.shop.config.orders, maxItems: 50,
                                       clock: shop.shop.clock, random: shop.shop.random, couponAttempts: shop.shop.couponAttempts)

        #expect(throws: OrderError.itemLimitExceeded(max: 50)) {
            try lowered.checkout(CheckoutRequest(addressID: buyer.address), idempotencyKey: try IdempotencyKey("cart-1"),
                                 for: buyer.user, clientIP: "127.0.0.1")
        }
        #expect(try shop.shop.carts.cart(of: buyer.user).totalQuantity == 60)
        #expect(try shop.orderStock(sku) == 500)
    }

    @Test func quantityLimitsAndTheirMessagesFollowTheConfiguredCap() throws {
        let shop = try TestShop { $0.cart.maxItems = 120 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 500)])["A"])
        let buyer = try shop.orderBuyer("13900000001")

        #expect(try shop.shop.carts.add(sku, quantity: 120, for: buyer.user).totalQuantity == 120)
        let capMessage = LocalizedText(zh: "数量应为 1 到 120 之间的整数。", en: "quantity must be a whole number from 1 to 120.")
        let cartError = #expect(throws: ValidationError.self) { try shop.shop.carts.add(sku, quantity: 121, for: buyer.user) }
        #expect(cartError?.field == "quantity")
        #expect(cartError?.message == capMessage)
        let orderError = #expect(throws: ValidationError.self) { try shop.orderBuyNow(buyer, [(sku, 121)], key: "k1") }
        #expect(orderError?.field == "quantity")
        #expect(orderError?.message == capMessage)
        #expect(throws: OrderError.itemLimitExceeded(max: 120)) {
            try shop.orderBuyNow(buyer, [(sku, 70), (sku, 51)], key: "k2")
        }
        #expect(try shop.orderBuyNow(buyer, [(sku, 110)], key: "k3").order.items.first?.quantity == 110)
    }

    @Test func aBuyerHoldsAtMostTheConfiguredUnpaidOrders() throws {
        let shop = try TestShop { $0.orders.maxUnpaidPerUser = 3 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 100)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let other = try shop.orderBuyer("13900000002")
        let placed = try (1...3).map { try shop.orderBuyNow(buyer, [(sku, 1)], key: "k\($0)").order }

        #expect(throws: OrderError.tooManyUnpaidOrders(max: 3)) { try shop.orderBuyNow(buyer, [(sku, 1)], key: "k4") }
        #expect(try shop.orderStock(sku) == 97)
        #expect(try shop.orderBuyNow(other, [(sku, 1)], key: "k1").replayed == false, "the limit is per buyer")

        // a replay of an order already placed still answers that order
        let replay = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k2")
        #expect(replay.replayed && replay.order.id == placed[1].id)

        // paying or cancelling one frees a place
        try shop.orderMarkPaid(placed[0].id)
        try shop.orderBuyNow(buyer, [(sku, 1)], key: "k5")
        #expect(throws: OrderError.tooManyUnpaidOrders(max: 3)) { try shop.orderBuyNow(buyer, [(sku, 1)], key: "k6") }
        _ = try shop.shop.orders.cancel(placed[2].id, for: buyer.user)
        try shop.orderBuyNow(buyer, [(sku, 1)], key: "k7")
    }

    @Test func theUnpaidCountFollowsEveryWayAnOrderLeavesOrEntersPendingPayment() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 100)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let other = try shop.orderBuyer("13900000002")
        let orders = try (1...4).map { try shop.orderBuyNow(buyer, [(sku, 1)], key: "k\($0)").order.id }
        _ = try shop.orderBuyNow(other, [(sku, 1)], key: "o1")
        let store = OrderStore()
        func counts() throws -> [Int] {
            try shop.pool.read { db in [try store.unpaidCount(of: buyer.user, db), try store.unpaidCount(of: other.user, db)] }
        }
        #expect(try counts() == [4, 1])
        try shop.orderMarkPaid(orders[0])
        _ = try shop.shop.orders.cancel(orders[1], for: buyer.user)
        #expect(try counts() == [2, 1], "paid and cancelled orders no longer count")
        // An operator's own SQL is counted too: the triggers see every change of status.
        try shop.pool.write { db in _ = try db.run("UPDATE orders SET status = 'cancelled' WHERE id = \(orders[2])") }
        try shop.pool.write { db in _ = try db.run("DELETE FROM order_items WHERE order_id = \(orders[3])") }
        try shop.pool.write { db in _ = try db.run("DELETE FROM idempotency_keys WHERE order_id = \(orders[3])") }
        try shop.pool.write { db in _ = try db.run("DELETE FROM orders WHERE id = \(orders[3])") }
        #expect(try counts() == [0, 1])
        let recount = try shop.pool.read { db in
            try db.scalarInt("SELECT COUNT(*) FROM orders WHERE user_id = \(buyer.user) AND status = \(OrderStatus.pendingPayment)")
        }
        #expect(recount == 0)
    }

    @Test func racingCheckoutsOfOneBuyerCannotPassTheUnpaidLimit() throws {
        let shop = try TestShop { $0.database.readers = 4 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 100)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let outcomes = OrderOutcomes()

        DispatchQueue.concurrentPerform(iterations: 12) { index in
            do {
                try shop.orderBuyNow(buyer, [(sku, 1)], key: "race-\(index)")
                outcomes.record("placed")
            } catch OrderError.tooManyUnpaidOrders {
                outcomes.record("refused")
            } catch {
                outcomes.record("\(error)")
            }
        }

        #expect(outcomes.count("placed") == 5, "\(outcomes.all)")
        #expect(outcomes.count("refused") == 7, "\(outcomes.all)")
        #expect(try shop.orderStock(sku) == 95)
    }
}
