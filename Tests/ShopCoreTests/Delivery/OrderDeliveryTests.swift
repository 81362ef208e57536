import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

/// Checkout with a delivery day, slot and card, on the test shop's manual clock (which starts at
/// 2026-11-30 16:00 in Shanghai, past the 14:00 cutoff).
@Suite("Orders: delivery day and card")
struct OrderDeliveryTests {
    static func day(_ text: String) -> CalendarDay { CalendarDay(text)! }

    func buy(_ shop: TestShop, _ buyer: OrderBuyer, _ sku: SKUID, key: String, _ delivery: DeliveryRequest) throws -> Checkout {
        try shop.shop.orders.checkout(CheckoutRequest(addressID: buyer.address, items: [.init(skuID: sku, quantity: 1)], delivery: delivery),
                                      idempotencyKey: try IdempotencyKey(key), for: buyer.user, clientIP: "127.0.0.1")
    }

    @Test func theOrderKeepsTheDaySlotAndCardItWasPlacedWith() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let wish = DeliveryRequest(date: Self.day("2026-12-03"), slot: .evening, cardMessage: "  生日快乐，\n永远爱你  ", cardSignature: " 小明 ")
        let order = try buy(shop, buyer, sku, key: "k1", wish).order
        #expect(order.delivery == OrderDelivery(date: Self.day("2026-12-03"), slot: .evening, cardMessage: "生日快乐，\n永远爱你",
                                                cardSignature: "小明"))
        #expect(try shop.shop.orders.order(order.id, for: buyer.user).delivery == order.delivery)
    }

    @Test func anOrderWithoutADayGetsTheEarliestPossibleDay() throws {
        let shop = try TestShop { $0.orders.closedDates = [Self.day("2026-12-01")] }
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        // 16:00 on 30 November: past the cutoff, and 1 December is closed
        let order = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1").order
        #expect(order.delivery == OrderDelivery(date: Self.day("2026-12-02"), slot: nil, cardMessage: nil, cardSignature: nil))
    }

    @Test func aDayTheShopCannotDeliverOnIsRefusedNamingTheEarliestAndChangesNothing() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 5)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-01"))) {
            try buy(shop, buyer, sku, key: "k1", DeliveryRequest(date: Self.day("2026-11-30")))
        }
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-01"))) {
            try buy(shop, buyer, sku, key: "k2", DeliveryRequest(date: Self.day("2026-12-31")))
        }
        #expect(try shop.orderStock(sku) == 5)
        #expect(try shop.orderRowCounts() == [0, 0, 0])
        // the last day, 30 days ahead, is fine
        #expect(try buy(shop, buyer, sku, key: "k3", DeliveryRequest(date: Self.day("2026-12-30"))).order.delivery.date == Self.day("2026-12-30"))
    }

    @Test func anOrderHoldingANextDayProductCannotGoOutToday() throws {
        let shop = try TestShop()
        let skus = try shop.orderSeed([OrderSeedSKU(code: "ROSE"), OrderSeedSKU(code: "POT", delivery: "next_day")])
        let rose = try #require(skus["ROSE"]), pot = try #require(skus["POT"])
        let buyer = try shop.orderBuyer("13900000001")
        shop.clock.advance(by: 18 * 3_600)  // 1 December, 10:00 in Shanghai: before the cutoff
        let today = DeliveryRequest(date: Self.day("2026-12-01"), slot: .evening)
        #expect(try buy(shop, buyer, rose, key: "k1", today).order.delivery.date == Self.day("2026-12-01"))
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-02"))) {
            try shop.shop.orders.checkout(
                CheckoutRequest(addressID: buyer.address, items: [.init(skuID: rose, quantity: 1), .init(skuID: pot, quantity: 1)],
                                delivery: today),
                idempotencyKey: try IdempotencyKey("k2"), for: buyer.user, clientIP: "127.0.0.1")
        }
        #expect(try shop.orderBuyNow(buyer, [(pot, 1)], key: "k3").order.delivery.date == Self.day("2026-12-02"))
        #expect(try shop.shop.orders.deliveryDays(for: [rose]).first?.date == Self.day("2026-12-01"))
        #expect(try shop.shop.orders.deliveryDays(for: [rose, pot]).first?.date == Self.day("2026-12-02"))
    }

    @Test func aSlotAlreadyStartedTodayIsRefused() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        shop.clock.advance(by: 17 * 3_600 + 30 * 60)  // 1 December, 09:30 in Shanghai
        #expect(throws: DeliveryUnavailable(field: "delivery_slot", earliest: Self.day("2026-12-01"))) {
            try buy(shop, buyer, sku, key: "k1", DeliveryRequest(date: Self.day("2026-12-01"), slot: .morning))
        }
        #expect(try shop.orderRowCounts() == [0, 0, 0])
    }

    @Test func cardsPastTheirLimitsOrWithControlCharactersAreRefused() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        #expect(throws: ValidationError.tooLong("card_message", max: 200)) {
            try buy(shop, buyer, sku, key: "k1", DeliveryRequest(cardMessage: String(repeating: "爱", count: 201)))
        }
        #expect(throws: ValidationError.tooLong("card_signature", max: 30)) {
            try buy(shop, buyer, sku, key: "k2", DeliveryRequest(cardSignature: String(repeating: "a", count: 31)))
        }
        #expect(throws: ValidationError("card_signature", .controlCharacters)) {
            try buy(shop, buyer, sku, key: "k3", DeliveryRequest(cardSignature: "小\n明"))
        }
        #expect(throws: ValidationError("card_message", .controlCharacters)) {
            try buy(shop, buyer, sku, key: "k4", DeliveryRequest(cardMessage: "hi\u{7}"))
        }
        #expect(try buy(shop, buyer, sku, key: "k5", DeliveryRequest(cardMessage: String(repeating: "爱", count: 200))).order.delivery.cardMessage?.count == 200)
        #expect(try shop.orderRowCounts() == [1, 1, 1])
    }

    @Test func aReplayWithTheSameDeliveryIsTheSameOrderAndAnotherCardReusesTheKey() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let wish = DeliveryRequest(date: Self.day("2026-12-05"), slot: .morning, cardMessage: "谢谢", cardSignature: "A")
        let first = try buy(shop, buyer, sku, key: "k1", wish)
        let replay = try buy(shop, buyer, sku, key: "k1", wish)
        #expect(replay.replayed && replay.order == first.order)
        #expect(throws: OrderError.idempotencyKeyReused) {
            try buy(shop, buyer, sku, key: "k1", DeliveryRequest(date: Self.day("2026-12-05"), slot: .morning, cardMessage: "谢谢!", cardSignature: "A"))
        }
        #expect(throws: OrderError.idempotencyKeyReused) {
            try buy(shop, buyer, sku, key: "k1", DeliveryRequest(date: Self.day("2026-12-06"), slot: .morning, cardMessage: "谢谢", cardSignature: "A"))
        }
        // without delivery fields the fingerprint is what it was before delivery days existed
        let plain = CheckoutRequest(addressID: buyer.address, note: "", items: [.init(skuID: sku, quantity: 1)])
        #expect(plain.fingerprint == "address=\(buyer.address.rawValue);note=;mode=items;items=\(sku.rawValue)x1")
    }

    @Test func theWorklistHoldsTheDaysPaidOrdersBySlot() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let evening = try buy(shop, buyer, sku, key: "k1", DeliveryRequest(date: Self.day("2026-12-03"), slot: .evening)).order
        let anyTime = try buy(shop, buyer, sku, key: "k2", DeliveryRequest(date: Self.day("2026-12-03"))).order
        let morning = try buy(shop, buyer, sku, key: "k3", DeliveryRequest(date: Self.day("2026-12-03"), slot: .morning, cardMessage: "早安")).order
        let unpaid = try buy(shop, buyer, sku, key: "k4", DeliveryRequest(date: Self.day("2026-12-03"))).order
        let otherDay = try buy(shop, buyer, sku, key: "k5", DeliveryRequest(date: Self.day("2026-12-04"))).order
        for order in [evening, anyTime, morning, otherDay] { try shop.orderMarkPaid(order.id) }
        let worklist = try shop.shop.orders.toDeliver(on: Self.day("2026-12-03"))
        #expect(worklist.map(\.id) == [morning.id, evening.id, anyTime.id])
        #expect(worklist.first?.delivery.cardMessage == "早安")
        #expect(try shop.shop.orders.toDeliver(on: Self.day("2026-12-03"), statuses: [.pendingPayment]).map(\.id) == [unpaid.id])
    }
}
