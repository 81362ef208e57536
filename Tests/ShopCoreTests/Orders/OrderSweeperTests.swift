import Foundation
import SQLite
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Orders: the sweeper")
struct OrderSweeperTests {
    @Test func anExpiredUnpaidOrderIsCancelledAndItsStockReturnedOnceEvenIfSweptTwice() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 3)], key: "k1").order

        shop.clock.advance(by: TimeInterval(shop.config.orders.paymentTimeoutMinutes * 60 + 1))
        let first = try shop.shop.orders.sweep()
        let second = try shop.shop.orders.sweep()

        #expect(first.cancelled == 1)
        #expect(second.cancelled == 0)
        let swept = try shop.shop.orders.order(order.id, for: buyer.user)
        #expect(swept.status == .cancelled)
        #expect(swept.cancelledAt == shop.clock.now)
        #expect(try shop.orderStock(sku) == 10)
    }

    @Test func anOrderInsideItsDeadlineIsLeftAlone() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let old = try shop.orderBuyNow(buyer, [(sku, 1)], key: "old").order
        shop.clock.advance(by: 20 * 60)
        let recent = try shop.orderBuyNow(buyer, [(sku, 2)], key: "recent").order

        shop.clock.advance(by: 10 * 60 - 1)
        #expect(try shop.shop.orders.sweep().cancelled == 0, "nothing is past its deadline yet")
        #expect(try shop.orderStock(sku) == 7)

        shop.clock.advance(by: 2)
        #expect(try shop.shop.orders.sweep().cancelled == 1)
        #expect(try shop.shop.orders.order(old.id, for: buyer.user).status == .cancelled)
        #expect(try shop.shop.orders.order(recent.id, for: buyer.user).status == .pendingPayment)
        #expect(try shop.orderStock(sku) == 8)
    }

    @Test func theDeadlineComesFromConfigAndLivesInTheDatabase() throws {
        let shop = try TestShop { $0.orders.paymentTimeoutMinutes = 5 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 4)], key: "k1").order
        shop.clock.advance(by: 5 * 60 + 1)

        // A restarted shop with another timeout still honours the deadline stored with the order.
        let restarted = try shop.reopened { $0.orders.paymentTimeoutMinutes = 60 }
        #expect(try restarted.orders.sweep().cancelled == 1)
        #expect(try restarted.orders.order(order.id, for: buyer.user).status == .cancelled)
        #expect(try shop.orderStock(sku) == 10)
    }

    @Test func theSweeperAndTheBuyerCancellingReturnTheStockOnce() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let first = try shop.orderBuyNow(buyer, [(sku, 2)], key: "k1").order
        let second = try shop.orderBuyNow(buyer, [(sku, 3)], key: "k2").order
        shop.clock.advance(by: 31 * 60)

        _ = try shop.shop.orders.cancel(first.id, for: buyer.user)
        #expect(try shop.shop.orders.sweep().cancelled == 1)
        #expect(throws: OrderError.stateConflict(current: .cancelled, action: .cancel)) {
            try shop.shop.orders.cancel(second.id, for: buyer.user)
        }
        #expect(try shop.orderStock(sku) == 10)
    }

    @Test func aPaidOrderIsNeverCancelledBySweeping() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 2)], key: "k1").order
        try shop.orderMarkPaid(order.id)

        shop.clock.advance(by: 2 * 86_400)
        let result = try shop.shop.orders.sweep()
        #expect(result.cancelled == 0)
        #expect(result.completed == 0)
        #expect(try shop.shop.orders.order(order.id, for: buyer.user).status == .paid)
        #expect(try shop.orderStock(sku) == 8)
    }

    @Test func aShippedOrderIsCompletedAfterTheAutoCompleteDays() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1").order
        let number = order.number
        #expect(try shop.orderMarkPaid(order.id))
        _ = try shop.shop.orders.ship(number: number, carrier: "顺丰", trackingNumber: "SF1", by: .commandLine(user: "test"))
        let days = shop.config.orders.autoCompleteDays

        shop.clock.advance(by: TimeInterval(days * 86_400 - 1))
        #expect(try shop.shop.orders.sweep().completed == 0)
        #expect(try shop.shop.orders.order(order.id, for: buyer.user).status == .shipped)

        shop.clock.advance(by: 1)
        #expect(try shop.shop.orders.sweep().completed == 1)
        let completed = try shop.shop.orders.order(order.id, for: buyer.user)
        #expect(completed.status == .completed)
        #expect(completed.completedAt == shop.clock.now)
        #expect(try shop.shop.orders.sweep().completed == 0)
        #expect(try shop.orderStock(sku) == 9)
    }

    @Test func theAutoCompleteDelayComesFromConfig() throws {
        let shop = try TestShop { $0.orders.autoCompleteDays = 2 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1").order
        try shop.orderMarkPaid(order.id)
        _ = try shop.shop.orders.ship(number: order.number, carrier: "顺丰", trackingNumber: "SF1", by: .commandLine(user: "test"))

        shop.clock.advance(by: 2 * 86_400 - 1)
        #expect(try shop.shop.orders.sweep().completed == 0)
        shop.clock.advance(by: 1)
        #expect(try shop.shop.orders.sweep().completed == 1)
    }

    @Test func theBackgroundSweeperCancelsExpiredOrdersAndStops() async throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 3)], key: "k1").order
        shop.clock.advance(by: 31 * 60)

        let sweeper = BackgroundSweeper(shop: shop.shop, logger: .silent)
        sweeper.start(interval: 1)
        var status = OrderStatus.pendingPayment
        for _ in 0..<100 where status == .pendingPayment {
            try await Task.sleep(for: .milliseconds(20))
            status = try shop.shop.orders.order(order.id, for: buyer.user).status
        }
        sweeper.stop()

        #expect(status == .cancelled)
        #expect(try shop.orderStock(sku) == 10)
    }
}
