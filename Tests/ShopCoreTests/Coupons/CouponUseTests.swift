import Dispatch
import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Coupons: counting uses")
struct CouponUseTests {
    /// 60 buyers, two checkouts each, all at once, on a coupon with 100 uses: exactly 100 orders
    /// get it, the other 20 checkouts are refused `usedUp`, and the count never passes 100.
    @Test func theHundredAndFirstUseFailsEvenInARace() throws {
        let shop = try TestShop { $0.database.readers = 4 }
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        let now = shop.clock.now
        _ = try shop.shop.coupons.create(NewCoupon(code: "RACE100", rule: .amountOff(cents: 1_000), startsAt: now,
                                                   endsAt: now.addingTimeInterval(60), maxUses: 100), by: .commandLine(user: "test"))
        let buyers = try (0..<60).map { index in
            try shop.orderBuyerFrom(String(format: "1390000%04d", index), ip: "10.0.\(index / 50).\(index % 50 + 1)")
        }
        let outcomes = Outcomes<String>()
        race(120) { index in
            do {
                let order = try shop.couponBuy(buyers[index / 2], [(sku, 1)], coupon: "race100", key: "race-\(index)").order
                outcomes.record(order.discountCents == 1_000 && order.totalCents == 9_000 ? "used" : "wrong: \(order)")
            } catch CouponError.usedUp {
                outcomes.record("usedUp")
            } catch {
                outcomes.record("error: \(error)")
            }
        }
        #expect(outcomes.count("used") == 100, "\(outcomes.all.filter { $0 != "used" && $0 != "usedUp" })")
        #expect(outcomes.count("usedUp") == 20)
        #expect(try shop.couponUses("RACE100") == 100)
        let (orders, uses) = try shop.pool.read { db in
            (try db.scalarInt("SELECT COUNT(*) FROM orders") ?? -1, try db.scalarInt("SELECT COUNT(*) FROM coupon_uses") ?? -1)
        }
        #expect(orders == 100 && uses == 100, "a refused checkout leaves no order behind")
        #expect(try shop.orderStock(sku) == 400)
    }

    /// 60 buyers of 60 different SKUs race for a coupon's last 5 uses. They do not queue on one stock
    /// row, so on PostgreSQL only the guarded UPDATE of the coupon keeps the count: exactly 5 get it,
    /// the other 55 are refused `usedUp` (422 `coupon_invalid`), none fails otherwise.
    @Test func buyersOfDifferentSKUsRacingForTheLastUsesGetExactlyThoseLeft() throws {
        let shop = try TestShop { $0.database.readers = 4 }
        let codes = (0..<60).map { String(format: "S%02d", $0) }
        let skus = try shop.couponSeed(codes.map { ($0, "100.00", "花束/玫瑰") })
        _ = try shop.shop.coupons.create(NewCoupon(code: "LAST5", rule: .amountOff(cents: 1_000), maxUses: 8), by: .commandLine(user: "test"))
        let early = try shop.orderBuyerFrom("13800000001", ip: "10.1.0.1")
        for index in 0..<3 {
            _ = try shop.couponBuy(early, [(try #require(skus[codes[index]]), 1)], coupon: "LAST5", key: "early-\(index)")
        }
        let buyers = try (0..<60).map { index in
            try shop.orderBuyerFrom(String(format: "1390000%04d", index), ip: "10.2.\(index / 50).\(index % 50 + 1)")
        }
        let bought = try codes.map { try #require(skus[$0]) }
        let outcomes = Outcomes<String>()
        race(60) { index in
            do {
                let order = try shop.couponBuy(buyers[index], [(bought[index], 1)], coupon: "LAST5", key: "last-\(index)").order
                outcomes.record(order.discountCents == 1_000 ? "used" : "wrong: \(order)")
            } catch CouponError.usedUp {
                outcomes.record("usedUp")
            } catch {
                outcomes.record("error: \(error)")
            }
        }
        #expect(outcomes.count("used") == 5, "\(outcomes.all.filter { $0 != "used" && $0 != "usedUp" })")
        #expect(outcomes.count("usedUp") == 55)
        #expect(try shop.couponUses("LAST5") == 8)
        #expect(try shop.pool.read { try $0.scalarInt("SELECT COUNT(*) FROM coupon_uses") } == 8)
    }

    /// One buyer racing checkouts on a per-buyer limit of 2 gets exactly two.
    @Test func thePerBuyerLimitHoldsWhenOneBuyerRaces() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "TWICE", rule: .percentOff(10), perUserLimit: 2), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        let other = try shop.orderBuyer("13900000002")
        let outcomes = Outcomes<String>()
        race(10) { index in
            do {
                _ = try shop.couponBuy(buyer, [(sku, 1)], coupon: "TWICE", key: "k-\(index)")
                outcomes.record("used")
            } catch CouponError.perUserLimitReached(_, let limit) {
                outcomes.record("limit \(limit)")
            } catch {
                outcomes.record("error: \(error)")
            }
        }
        #expect(outcomes.count("used") == 2, "\(outcomes.all)")
        #expect(outcomes.count("limit 2") == 8, "\(outcomes.all)")
        #expect(try shop.couponBuy(other, [(sku, 1)], coupon: "TWICE", key: "o-1").order.discountCents == 1_000,
                "the limit is per buyer")
    }

    @Test func cancellingAnUnpaidOrderGivesItsUseBack() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "ONCE", rule: .amountOff(cents: 500), maxUses: 1, perUserLimit: 1), by: .commandLine(user: "test"))
        let first = try shop.orderBuyer("13900000001")
        let second = try shop.orderBuyer("13900000002")
        let order = try shop.couponBuy(first, [(sku, 1)], coupon: "ONCE", key: "k1").order
        #expect(throws: CouponError.usedUp(code: "ONCE")) { try shop.couponBuy(second, [(sku, 1)], coupon: "ONCE", key: "k2") }
        #expect(throws: CouponError.usedUp(code: "ONCE")) { try shop.couponBuy(first, [(sku, 1)], coupon: "ONCE", key: "k3") }

        let cancelled = try shop.shop.orders.cancel(order.id, for: first.user)
        #expect(cancelled.coupon?.code == "ONCE" && cancelled.discountCents == 500, "the order still shows what it had")
        #expect(try shop.couponUses("ONCE") == 0)
        #expect(try shop.couponBuy(second, [(sku, 1)], coupon: "ONCE", key: "k4").order.discountCents == 500)
    }

    @Test func cancellingTwiceGivesTheUseBackOnce() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "ONCE", rule: .amountOff(cents: 500), maxUses: 2), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        let kept = try shop.couponBuy(buyer, [(sku, 1)], coupon: "ONCE", key: "k1").order
        let order = try shop.couponBuy(buyer, [(sku, 1)], coupon: "ONCE", key: "k2").order
        _ = try shop.shop.orders.cancel(order.id, for: buyer.user)
        #expect(throws: OrderError.self) { try shop.shop.orders.cancel(order.id, for: buyer.user) }
        #expect(try shop.couponUses("ONCE") == 1)
        #expect(kept.discountCents == 500)
        let again = try shop.couponBuy(buyer, [(sku, 1)], coupon: "ONCE", key: "k3").order
        #expect(again.discountCents == 500)
        #expect(try shop.couponUses("ONCE") == 2)
    }

    @Test func theSweepersAutoCancelGivesTheUseBackAndThePerBuyerCountToo() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "ONCE", rule: .amountOff(cents: 500), maxUses: 1, perUserLimit: 1), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.couponBuy(buyer, [(sku, 1)], coupon: "ONCE", key: "k1")
        shop.clock.advance(by: TimeInterval(shop.config.orders.paymentTimeoutMinutes * 60 + 1))
        #expect(try shop.shop.orders.sweep().cancelled == 1)
        #expect(try shop.couponUses("ONCE") == 0)
        #expect(try shop.couponBuy(buyer, [(sku, 1)], coupon: "ONCE", key: "k2").order.discountCents == 500)
    }

    @Test func aPaidOrderCancelledBeforeShippingGivesItsUseBackButAShippedOneKeepsIt() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "TWO", rule: .amountOff(cents: 500), maxUses: 2), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        let refunded = try shop.couponBuy(buyer, [(sku, 1)], coupon: "TWO", key: "k1").order
        let shipped = try shop.couponBuy(buyer, [(sku, 1)], coupon: "TWO", key: "k2").order
        try shop.orderMarkPaid(refunded.id)
        try shop.orderMarkPaid(shipped.id)
        _ = try shop.shop.orders.ship(number: shipped.number, carrier: "顺丰", trackingNumber: "SF1", by: .commandLine(user: "test"))
        #expect(try shop.shop.orders.cancel(refunded.id, for: buyer.user).status == .refunding)
        #expect(try shop.couponUses("TWO") == 1)
    }

    @Test func aReplayedCheckoutAnswersTheSameOrderAndTakesNoSecondUse() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "ONCE", rule: .amountOff(cents: 500), maxUses: 5), by: .commandLine(user: "test"))
        _ = try shop.shop.coupons.create(NewCoupon(code: "OTHER", rule: .amountOff(cents: 700)), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        let first = try shop.couponBuy(buyer, [(sku, 1)], coupon: "ONCE", key: "k1")
        let replay = try shop.couponBuy(buyer, [(sku, 1)], coupon: "once", key: "k1")
        #expect(replay.replayed && replay.order == first.order, "a code differing only in case is the same request")
        #expect(try shop.couponUses("ONCE") == 1)
        #expect(throws: OrderError.idempotencyKeyReused) { try shop.couponBuy(buyer, [(sku, 1)], coupon: "OTHER", key: "k1") }
        #expect(throws: OrderError.idempotencyKeyReused) { try shop.couponBuy(buyer, [(sku, 1)], coupon: nil, key: "k1") }
        let plain = try shop.couponBuy(buyer, [(sku, 1)], coupon: nil, key: "k2").order
        #expect(plain.coupon == nil && plain.discountCents == 0 && plain.totalCents == 10_000)
    }

    @Test func aCheckoutRefusedForStockTakesNoUse() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "LAST", stock: 1)])["LAST"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "ONCE", rule: .amountOff(cents: 100), maxUses: 1), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        #expect(throws: OrderError.self) { try shop.couponBuy(buyer, [(sku, 2)], coupon: "ONCE", key: "k1") }
        #expect(try shop.couponUses("ONCE") == 0)
        #expect(try shop.couponBuy(buyer, [(sku, 1)], coupon: "ONCE", key: "k2").order.discountCents == 100)
    }
}

extension TestShop {
    /// `orderBuyer` registering from its own client address, so many buyers stay under the per-IP code limit.
    func orderBuyerFrom(_ phone: String, ip: String) throws -> OrderBuyer {
        let user = try register(phone, from: ip).user.id
        let address = try shop.addresses.create(
            AddressFields(recipient: "王小花", phone: "13800138000", province: "浙江省", city: "杭州市", district: "西湖区",
                          detail: "人民路1号", postalCode: "310000"), for: user)
        return OrderBuyer(user: user, address: address.id, ip: ip)
    }
}
