import Foundation
import SQL
import SQLite
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Orders: life cycle")
struct OrderLifecycleTests {
    @Test func cancellingReturnsTheStockOnceAndASecondCancelConflicts() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 4)], key: "k1").order
        #expect(try shop.orderStock(sku) == 6)

        shop.clock.advance(by: 60)
        let cancelled = try shop.shop.orders.cancel(order.id, for: buyer.user)
        #expect(cancelled.status == .cancelled)
        #expect(cancelled.cancelledAt == shop.clock.now)
        #expect(try shop.orderStock(sku) == 10)

        #expect(throws: OrderError.stateConflict(current: .cancelled, action: .cancel)) {
            try shop.shop.orders.cancel(order.id, for: buyer.user)
        }
        #expect(try shop.orderStock(sku) == 10)
        #expect(try shop.shop.orders.order(order.id, for: buyer.user).cancelledAt == cancelled.cancelledAt)
    }

    @Test func confirmingReceiptOfAnUnshippedOrderConflicts() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1").order

        #expect(throws: OrderError.stateConflict(current: .pendingPayment, action: .confirmReceipt)) {
            try shop.shop.orders.confirmReceipt(order.id, for: buyer.user)
        }
        try shop.orderMarkPaid(order.id)
        #expect(throws: OrderError.stateConflict(current: .paid, action: .confirmReceipt)) {
            try shop.shop.orders.confirmReceipt(order.id, for: buyer.user)
        }
        #expect(try shop.shop.orders.order(order.id, for: buyer.user).status == .paid)
    }

    @Test func aPaidOrderCancelledGoesToRefundingWithItsStockBackAndItsSalesUncounted() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 3)], key: "k1").order
        try shop.orderMarkPaid(order.id)
        #expect(try shop.orderSales(of: sku) == 3)

        let cancelled = try shop.shop.orders.cancel(order.id, for: buyer.user)

        #expect(cancelled.status == .refunding)
        #expect(cancelled.cancelledAt == shop.clock.now)
        #expect(try shop.orderStock(sku) == 10)
        #expect(try shop.orderSales(of: sku) == 0)
        #expect(throws: OrderError.stateConflict(current: .refunding, action: .cancel)) {
            try shop.shop.orders.cancel(order.id, for: buyer.user)
        }
        #expect(try shop.orderStock(sku) == 10)
    }

    @Test func theOrderWalksPaidShippedCompletedWithItsTimesAndShipment() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 2)], key: "k1").order

        #expect(throws: OrderError.stateConflict(current: .pendingPayment, action: .ship)) {
            try shop.shop.orders.ship(number: order.number, carrier: "顺丰", trackingNumber: "SF1", by: .commandLine(user: "test"))
        }
        shop.clock.advance(by: 60)
        #expect(try shop.orderMarkPaid(order.id))
        let paidAt = shop.clock.now
        shop.clock.advance(by: 3_600)
        let shipped = try shop.shop.orders.ship(number: order.number, carrier: " 顺丰速运 ", trackingNumber: "SF1234567890", by: .commandLine(user: "test"))
        #expect(shipped.status == .shipped)
        #expect(shipped.paidAt == paidAt)
        #expect(shipped.shippedAt == shop.clock.now)
        #expect(shipped.shipment == Shipment(carrier: "顺丰速运", trackingNumber: "SF1234567890"))
        #expect(throws: OrderError.stateConflict(current: .shipped, action: .ship)) {
            try shop.shop.orders.ship(number: order.number, carrier: "EMS", trackingNumber: "E1", by: .commandLine(user: "test"))
        }

        shop.clock.advance(by: 86_400)
        let completed = try shop.shop.orders.confirmReceipt(order.id, for: buyer.user)
        #expect(completed.status == .completed)
        #expect(completed.completedAt == shop.clock.now)
        #expect(completed.shipment == shipped.shipment)
        #expect(throws: OrderError.stateConflict(current: .completed, action: .confirmReceipt)) {
            try shop.shop.orders.confirmReceipt(order.id, for: buyer.user)
        }
        #expect(throws: OrderError.stateConflict(current: .completed, action: .cancel)) {
            try shop.shop.orders.cancel(order.id, for: buyer.user)
        }
        #expect(try shop.orderStock(sku) == 8)
    }

    @Test func shippingAnUnknownNumberIsNotFound() throws {
        let shop = try TestShop()
        #expect(throws: OrderError.notFound) {
            try shop.shop.orders.ship(number: "20261130000000000", carrier: "顺丰", trackingNumber: "SF1", by: .commandLine(user: "test"))
        }
    }

    /// Every (status, transition) pair: only the documented arrows move the order.
    @Test func onlyTheDocumentedTransitionsAreAllowed() throws {
        // one buyer holds every order of the walk, several of them unpaid at once
        let shop = try TestShop { $0.orders.maxUnpaidPerUser = 100 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 100)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let lifecycle = OrderLifecycle()
        let paths: [OrderStatus: [OrderStatus]] = [
            .pendingPayment: [], .paid: [.paid], .shipped: [.paid, .shipped], .delivered: [.paid, .shipped, .delivered],
            .completed: [.paid, .shipped, .completed],
            .cancelled: [.cancelled], .refunding: [.paid, .refunding], .refunded: [.paid, .refunding, .refunded],
        ]
        let allowed: Set<[OrderStatus]> = [[.pendingPayment, .paid], [.pendingPayment, .cancelled], [.paid, .shipped],
                                           [.shipped, .delivered], [.shipped, .completed], [.delivered, .completed],
                                           [.paid, .refunding], [.refunding, .refunded]]
        var key = 0
        func order(in status: OrderStatus) throws -> OrderID {
            key += 1
            let id = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k\(key)").order.id
            let now = shop.clock.clock.unixNow
            for step in paths[status] ?? [] {
                let moved = try shop.pool.write { db in try self.move(lifecycle, id, to: step, at: now, db) }
                guard moved else { throw FixtureError("could not put order into \(step)") }
            }
            return id
        }

        for from in OrderStatus.allCases {
            for to in OrderStatus.allCases where to != .pendingPayment {
                let id = try order(in: from)
                let now = shop.clock.clock.unixNow
                let moved = try shop.pool.write { db in try self.move(lifecycle, id, to: to, at: now, db) }
                let status = try shop.shop.orders.order(id, for: buyer.user).status
                if allowed.contains([from, to]) {
                    #expect(moved, "\(from) → \(to) should be allowed")
                    #expect(status == to)
                } else {
                    #expect(!moved, "\(from) → \(to) should be refused")
                    #expect(status == from, "\(from) → \(to) changed the status to \(status)")
                }
                #expect(from.next.contains(to) == allowed.contains([from, to]), "OrderStatus.next disagrees on \(from) → \(to)")
            }
        }
    }

    private func move(_ lifecycle: OrderLifecycle, _ id: OrderID, to status: OrderStatus, at now: Int64,
                      _ db: any SQLConnection) throws -> Bool {
        switch status {
        case .paid: try lifecycle.markPaid(id, at: now, db)
        case .shipped: try lifecycle.ship(id, carrier: "顺丰", trackingNumber: "SF1", at: now, db)
        case .delivered: try lifecycle.deliver(id, photoURL: nil, at: now, db)
        case .completed: try lifecycle.complete(id, at: now, db)
        case .cancelled: try lifecycle.cancel(id, reason: "test", at: now, db)
        case .refunding: try lifecycle.startRefund(id, reason: "test", at: now, db)
        case .refunded: try lifecycle.finishRefund(id, at: now, db)
        case .pendingPayment: false
        }
    }

    @Test func markingPaidCountsTheSalesOnce() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "A1", product: "P", stock: 10),
                                       OrderSeedSKU(code: "A2", product: "P", stock: 10),
                                       OrderSeedSKU(code: "B", stock: 10)])
        let a1 = try #require(skus["A1"]), a2 = try #require(skus["A2"]), b = try #require(skus["B"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(a1, 2), (a2, 3), (b, 1)], key: "k1").order
        #expect(try shop.orderSales(of: a1) == 0, "sales count payments, not checkouts")

        #expect(try shop.orderMarkPaid(order.id) == true)
        #expect(try shop.orderSales(of: a1) == 5)
        #expect(try shop.orderSales(of: b) == 1)

        #expect(try shop.orderMarkPaid(order.id) == false)
        #expect(try shop.orderSales(of: a1) == 5)
        #expect(try shop.orderSales(of: b) == 1)
        #expect(try shop.orderStock(a1) == 8, "payment takes no further stock")
    }

    @Test func aCancelledOrderCannotBePaidAndCountsNoSales() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 2)], key: "k1").order
        _ = try shop.shop.orders.cancel(order.id, for: buyer.user)

        #expect(try shop.orderMarkPaid(order.id) == false)
        #expect(try shop.orderSales(of: sku) == 0)
        #expect(try shop.orderStock(sku) == 10)
        #expect(try shop.shop.orders.order(order.id, for: buyer.user).status == .cancelled)
    }

    @Test func anotherUsersOrderIsNotFoundAndUntouched() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let alice = try shop.orderBuyer("13900000001")
        let bob = try shop.orderBuyer("13900000002")
        let hers = try shop.orderBuyNow(alice, [(sku, 2)], key: "k1").order

        #expect(throws: OrderError.notFound) { try shop.shop.orders.order(hers.id, for: bob.user) }
        #expect(throws: OrderError.notFound) { try shop.shop.orders.cancel(hers.id, for: bob.user) }
        #expect(throws: OrderError.notFound) { try shop.shop.orders.confirmReceipt(hers.id, for: bob.user) }
        #expect(try shop.shop.orders.orders(for: bob.user, status: nil, page: try PageRequest()).total == 0)
        #expect(try shop.shop.orders.order(hers.id, for: alice.user).status == .pendingPayment)
        #expect(try shop.orderStock(sku) == 8)
    }

    @Test func listsAreNewestFirstFilteredByStatusAndPaged() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 100)])["A"])
        let alice = try shop.orderBuyer("13900000001")
        let bob = try shop.orderBuyer("13900000002")
        var ids: [OrderID] = []
        for index in 0..<5 {
            ids.append(try shop.orderBuyNow(alice, [(sku, 1)], key: "a\(index)").order.id)
            try shop.orderBuyNow(bob, [(sku, 1)], key: "b\(index)")
            shop.clock.advance(by: 10)
        }
        _ = try shop.shop.orders.cancel(ids[1], for: alice.user)

        let all = try shop.shop.orders.orders(for: alice.user, status: nil, page: try PageRequest())
        #expect(all.items.map(\.id) == ids.reversed())
        #expect(all.total == 5)
        #expect(all.items.allSatisfy { $0.userID == alice.user })
        let cancelled = try shop.shop.orders.orders(for: alice.user, status: .cancelled, page: try PageRequest())
        #expect(cancelled.items.map(\.id) == [ids[1]])
        #expect(cancelled.total == 1)
        let second = try shop.shop.orders.orders(for: alice.user, status: nil, page: try PageRequest(page: 2, perPage: 2))
        #expect(second.items.map(\.id) == [ids[2], ids[1]])
        #expect((second.page, second.perPage, second.total) == (2, 2, 5))
        let everyone = try shop.shop.orders.allOrders(status: .pendingPayment, page: try PageRequest(perPage: 100))
        #expect(everyone.total == 9)
    }
}
