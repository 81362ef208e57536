import Crypto
import Foundation
import SQLite
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Orders: checkout")
struct OrderCheckoutTests {
    @Test func replayingTheSameKeyAndRequestReturnsTheSameOrderAndTakesStockOnce() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])
        let sku = try #require(skus["A"])
        let buyer = try shop.orderBuyer("13900000001")

        let first = try shop.orderBuyNow(buyer, [(sku, 2)], key: "key-1", note: "请下午送")
        let replay = try shop.orderBuyNow(buyer, [(sku, 2)], key: "key-1", note: "请下午送")

        #expect(first.replayed == false)
        #expect(replay.replayed == true)
        #expect(replay.order.id == first.order.id)
        #expect(replay.order.number == first.order.number)
        #expect(replay.order == first.order)
        #expect(try shop.orderStock(sku) == 8)
        #expect(try shop.orderRowCounts() == [1, 1, 1])
    }

    @Test func reusingAKeyForAnotherRequestIsRefusedAndChangesNothing() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10), OrderSeedSKU(code: "B", stock: 10)])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        let buyer = try shop.orderBuyer("13900000001")
        try shop.orderBuyNow(buyer, [(a, 1)], key: "key-1")

        #expect(throws: OrderError.idempotencyKeyReused) { try shop.orderBuyNow(buyer, [(a, 2)], key: "key-1") }
        #expect(throws: OrderError.idempotencyKeyReused) { try shop.orderBuyNow(buyer, [(b, 1)], key: "key-1") }
        #expect(throws: OrderError.idempotencyKeyReused) { try shop.orderBuyNow(buyer, [(a, 1)], key: "key-1", note: "另一单") }
        #expect(throws: OrderError.idempotencyKeyReused) {
            try shop.shop.orders.checkout(CheckoutRequest(addressID: buyer.address), idempotencyKey: try IdempotencyKey("key-1"),
                                          for: buyer.user, clientIP: "127.0.0.1")
        }
        #expect(try shop.orderStock(a) == 9)
        #expect(try shop.orderStock(b) == 10)
        #expect(try shop.orderRowCounts() == [1, 1, 1])
    }

    @Test func aMissingEmptyOrOverlongKeyIsRefusedBeforeAnythingHappens() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let request = CheckoutRequest(addressID: buyer.address, items: [.init(skuID: sku, quantity: 1)])

        for key in [nil, "", String(repeating: "k", count: 65)] as [String?] {
            #expect(throws: OrderError.idempotencyKeyRequired) {
                try shop.shop.orders.checkout(request, idempotencyKey: try IdempotencyKey(key), for: buyer.user, clientIP: "127.0.0.1")
            }
        }
        #expect(try shop.orderStock(sku) == 10)
        #expect(try shop.orderRowCounts() == [0, 0, 0])

        let longest = try shop.shop.orders.checkout(request, idempotencyKey: try IdempotencyKey(String(repeating: "k", count: 64)),
                                                    for: buyer.user, clientIP: "127.0.0.1")
        #expect(longest.replayed == false)
        #expect(try shop.orderStock(sku) == 9)
    }

    @Test func idempotencyKeysBelongToOneUser() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let alice = try shop.orderBuyer("13900000001")
        let bob = try shop.orderBuyer("13900000002")

        let hers = try shop.orderBuyNow(alice, [(sku, 1)], key: "same-key")
        let his = try shop.orderBuyNow(bob, [(sku, 3)], key: "same-key")

        #expect(his.replayed == false)
        #expect(his.order.id != hers.order.id)
        #expect(his.order.userID == bob.user)
        #expect(hers.order.userID == alice.user)
        #expect(try shop.orderStock(sku) == 6)
        #expect(try shop.orderRowCounts() == [2, 2, 2])
    }

    @Test func outOfStockNamesTheSKUAndChangesNothing() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10), OrderSeedSKU(code: "B", stock: 1)])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        let buyer = try shop.orderBuyer("13900000001")

        #expect(throws: OrderError.outOfStock(b, sku: SKULabel(title: "花束P-B", name: "规格B"), available: 1)) {
            try shop.orderBuyNow(buyer, [(a, 3), (b, 2)], key: "key-1")
        }
        #expect(try shop.orderStock(a) == 10)
        #expect(try shop.orderStock(b) == 1)
        #expect(try shop.orderRowCounts() == [0, 0, 0])

        // The refused attempt did not spend the key: it may carry a request that fits.
        let placed = try shop.orderBuyNow(buyer, [(a, 3), (b, 1)], key: "key-1")
        #expect(placed.replayed == false)
        #expect(try shop.orderStock(a) == 7)
        #expect(try shop.orderStock(b) == 0)
    }

    @Test func buyingTheSameSKUOnTwoLinesCountsBothAgainstStock() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 3)])["A"])
        let buyer = try shop.orderBuyer("13900000001")

        #expect(throws: OrderError.outOfStock(sku, sku: SKULabel(title: "花束P-A", name: "规格A"), available: 3)) {
            try shop.orderBuyNow(buyer, [(sku, 2), (sku, 2)], key: "k1")
        }
        #expect(try shop.orderStock(sku) == 3)
        let order = try shop.orderBuyNow(buyer, [(sku, 1), (sku, 2)], key: "k2").order
        #expect(order.items.map(\.quantity).reduce(0, +) == 3)
        #expect(try shop.orderStock(sku) == 0)
    }

    @Test func anUnknownOrOffSaleSKUIsRefusedAndChangesNothing() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10), OrderSeedSKU(code: "OFF", stock: 10, status: "off_sale")])
        let a = try #require(skus["A"]), off = try #require(skus["OFF"])
        let buyer = try shop.orderBuyer("13900000001")

        #expect(throws: OrderError.skuNotFound(off)) { try shop.orderBuyNow(buyer, [(a, 1), (off, 1)], key: "k1") }
        #expect(throws: OrderError.skuNotFound(SKUID(999_999))) { try shop.orderBuyNow(buyer, [(a, 1), (SKUID(999_999), 1)], key: "k2") }
        #expect(try shop.orderStock(a) == 10)
        #expect(try shop.orderStock(off) == 10)
        #expect(try shop.orderRowCounts() == [0, 0, 0])
    }

    @Test func anotherUsersAddressCannotBeUsed() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let alice = try shop.orderBuyer("13900000001")
        let bob = try shop.orderBuyer("13900000002")

        #expect(throws: AddressError.notFound) {
            try shop.orderBuyNow(OrderBuyer(user: bob.user, address: alice.address), [(sku, 1)], key: "k1")
        }
        #expect(try shop.orderStock(sku) == 10)
        #expect(try shop.orderRowCounts() == [0, 0, 0])
    }

    @Test func cartCheckoutOrdersAndRemovesExactlyTheSelectedLines() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "A", price: "10.00", stock: 10),
                                       OrderSeedSKU(code: "B", price: "25.50", stock: 10),
                                       OrderSeedSKU(code: "C", price: "99.00", stock: 10)])
        let a = try #require(skus["A"]), b = try #require(skus["B"]), c = try #require(skus["C"])
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.carts.add(a, quantity: 2, for: buyer.user)
        _ = try shop.shop.carts.add(b, quantity: 1, for: buyer.user)
        let cart = try shop.shop.carts.add(c, quantity: 4, for: buyer.user)
        let lineC = try #require(cart.lines.first { $0.skuID == c })
        _ = try shop.shop.carts.update(lineC.id, quantity: nil, selected: false, for: buyer.user)

        let checkout = try shop.shop.orders.checkout(CheckoutRequest(addressID: buyer.address), idempotencyKey: try IdempotencyKey("cart-1"),
                                                     for: buyer.user, clientIP: "127.0.0.1")

        let ordered = Dictionary(uniqueKeysWithValues: checkout.order.items.map { ($0.skuID, $0.quantity) })
        #expect(ordered == [a: 2, b: 1])
        #expect(checkout.order.totalCents == 2 * 1_000 + 2_550)
        let left = try shop.shop.carts.cart(of: buyer.user).lines
        #expect(left.map(\.id) == [lineC.id])
        #expect(left.first?.quantity == 4)
        #expect(left.first?.selected == false)
        #expect(try shop.orderStock(a) == 8)
        #expect(try shop.orderStock(b) == 9)
        #expect(try shop.orderStock(c) == 10)
    }

    @Test func cartCheckoutWithNothingSelectedIsRefusedAndChangesNothing() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let request = CheckoutRequest(addressID: buyer.address)

        #expect(throws: OrderError.nothingToOrder) { try shop.shop.orders.checkout(request, idempotencyKey: try IdempotencyKey("k1"),
                                                                                   for: buyer.user, clientIP: "127.0.0.1") }

        let cart = try shop.shop.carts.add(sku, quantity: 2, for: buyer.user)
        _ = try shop.shop.carts.update(try #require(cart.lines.first).id, quantity: nil, selected: false, for: buyer.user)
        #expect(throws: OrderError.nothingToOrder) { try shop.shop.orders.checkout(request, idempotencyKey: try IdempotencyKey("k2"),
                                                                                   for: buyer.user, clientIP: "127.0.0.1") }

        #expect(try shop.shop.carts.cart(of: buyer.user).lines.count == 1)
        #expect(try shop.orderStock(sku) == 10)
        #expect(try shop.orderRowCounts() == [0, 0, 0])
    }

    @Test func cartCheckoutOutOfStockKeepsTheCartAndTheStock() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10), OrderSeedSKU(code: "B", stock: 5)])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.carts.add(a, quantity: 2, for: buyer.user)
        _ = try shop.shop.carts.add(b, quantity: 5, for: buyer.user)
        let other = try shop.orderBuyer("13900000002")
        try shop.orderBuyNow(other, [(b, 1)], key: "theirs")
        let before = try shop.shop.carts.cart(of: buyer.user)

        #expect(throws: OrderError.outOfStock(b, sku: SKULabel(title: "花束P-B", name: "规格B"), available: 4)) {
            try shop.shop.orders.checkout(CheckoutRequest(addressID: buyer.address), idempotencyKey: try IdempotencyKey("mine"),
                                          for: buyer.user, clientIP: "127.0.0.1")
        }
        #expect(try shop.shop.carts.cart(of: buyer.user).lines.map(\.id) == before.lines.map(\.id))
        #expect(try shop.orderStock(a) == 10)
        #expect(try shop.orderStock(b) == 4)
        #expect(try shop.orderRowCounts() == [1, 1, 1])
    }

    @Test func pricesAreTheCataloguesAtCheckoutAndLaterPriceChangesLeaveTheOrderAlone() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", price: "12.34", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let placed = try shop.orderBuyNow(buyer, [(sku, 3)], key: "k1").order
        #expect(placed.items.map(\.priceCents) == [1_234])
        #expect(placed.totalCents == 3_702)

        try shop.orderSeed([OrderSeedSKU(code: "A", price: "99.90", stock: 10)])
        let stored = try shop.shop.orders.order(placed.id, for: buyer.user)
        #expect(stored.items.map(\.priceCents) == [1_234])
        #expect(stored.totalCents == 3_702)
        #expect(try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1-replay-after-price-change").order.totalCents == 9_990)
        #expect(try shop.orderBuyNow(buyer, [(sku, 3)], key: "k1").order.totalCents == 3_702)
    }

    @Test func theAddressSnapshotSurvivesEditingAndDeletingTheAddress() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001", recipient: "王小花")
        let placed = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1").order
        let expected = AddressSnapshot(recipient: "王小花", phone: "13800138000", province: "浙江省", city: "杭州市",
                                       district: "西湖区", detail: "人民路1号", postalCode: "310000")
        #expect(placed.address == expected)

        _ = try shop.shop.addresses.update(buyer.address, AddressFields(recipient: "李大树", detail: "解放路99号", postalCode: "100000"),
                                           for: buyer.user)
        #expect(try shop.shop.orders.order(placed.id, for: buyer.user).address == expected)
        try shop.shop.addresses.delete(buyer.address, for: buyer.user)
        #expect(try shop.shop.orders.order(placed.id, for: buyer.user).address == expected)
    }

    @Test func aNewOrderWaitsForPaymentUntilTheConfiguredDeadline() throws {
        let shop = try TestShop { $0.orders.paymentTimeoutMinutes = 7 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1", note: "  生日快乐  ").order

        #expect(order.status == .pendingPayment)
        #expect(order.createdAt == shop.clock.now)
        #expect(order.payDeadline == shop.clock.now.addingTimeInterval(7 * 60))
        #expect(order.note == "生日快乐")
        #expect([order.paidAt, order.shippedAt, order.completedAt, order.cancelledAt] == [nil, nil, nil, nil])
        #expect(order.shipment == nil)
    }

    @Test func orderNumbersAreUniqueDatedAndNotSequential() throws {
        let shop = try TestShop { $0.orders.maxUnpaidPerUser = 30 }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 1_000)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let numbers = try (0..<30).map { try shop.orderBuyNow(buyer, [(sku, 1)], key: "k\($0)").order.number }

        #expect(Set(numbers).count == numbers.count)
        for number in numbers {
            #expect(number.utf8.count >= 14 && number.isASCIIDigits, "\(number)")
            // The manual clock starts at 2026-11-30 08:00 UTC: the 30th in China time too.
            #expect(number.hasPrefix("20261130"), "\(number)")
        }
        // Consecutive orders must not differ only in the last digit (no counter to walk).
        let adjacentLookAlikes = zip(numbers, numbers.dropFirst()).filter { $0.dropLast() == $1.dropLast() }
        #expect(adjacentLookAlikes.isEmpty, "\(adjacentLookAlikes)")
        let asIntegers = numbers.compactMap { Int($0.dropFirst(8)) }
        let steps = Set(zip(asIntegers, asIntegers.dropFirst()).map { $1 - $0 })
        #expect(steps.count > 1, "numbers advance by a constant step: \(steps)")
    }
}
