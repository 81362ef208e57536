import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Coupons: rules and discounts")
struct CouponRuleTests {
    @Test func percentOffIsRoundedDownToTheCentAndTheOrderRecordsIt() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "33.33", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "off15", rule: .percentOff(15)), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.couponBuy(buyer, [(sku, 1)], coupon: "OFF15", key: "k1").order
        // 3333 × 15 / 100 = 499.95 → 499
        #expect(order.discountCents == 499)
        #expect(order.totalCents == 3333 - 499)
        #expect(order.coupon == OrderCoupon(code: "OFF15", description: "8.5折"))
        #expect(try shop.couponUses("OFF15") == 1)
    }

    @Test func amountOffNeverTakesMoreThanTheLinesCostAndLeavesOneCentToPay() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "30.00", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "BIG50", rule: .amountOff(cents: 5_000)), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.couponBuy(buyer, [(sku, 1)], coupon: "big50", key: "k1").order
        #expect(order.discountCents == 2_999)
        #expect(order.totalCents == 1)
        #expect(CouponPricing.discount(.amountOff(cents: 2_000), eligibleCents: 5_000, subtotalCents: 9_000) == 2_000)
        #expect(CouponPricing.discount(.percentOff(99), eligibleCents: 1, subtotalCents: 1) == 0)
    }

    @Test func minSpendIsComparedWithTheLinesTheCouponAppliesTo() throws {
        let shop = try TestShop()
        let skus = try shop.couponSeed([("ROSE", "80.00", "花束/玫瑰"), ("PLANT", "50.00", "绿植")])
        let rose = try #require(skus["ROSE"]), plant = try #require(skus["PLANT"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "FLOWER20", rule: .amountOff(cents: 2_000), minSpendCents: 10_000,
                                                   categoryPath: "花束"), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        #expect(throws: CouponError.minSpendNotMet(code: "FLOWER20", minSpendCents: 10_000)) {
            try shop.couponBuy(buyer, [(rose, 1), (plant, 1)], coupon: "FLOWER20", key: "k1")
        }
        #expect(try shop.orderRowCounts() == [0, 0, 0], "a refused coupon leaves nothing behind")
        let order = try shop.couponBuy(buyer, [(rose, 2), (plant, 1)], coupon: "FLOWER20", key: "k2").order
        #expect(order.discountCents == 2_000)
        #expect(order.totalCents == 16_000 + 5_000 - 2_000)
    }

    @Test func aCategoryCouponAppliesToThatCategoryAndTheOnesUnderItOnly() throws {
        let shop = try TestShop()
        let skus = try shop.couponSeed([("ROSE", "100.00", "花束/玫瑰"), ("LILY", "50.00", "花束/百合"), ("PLANT", "40.00", "绿植")])
        let rose = try #require(skus["ROSE"]), lily = try #require(skus["LILY"]), plant = try #require(skus["PLANT"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "BOUQUET10", rule: .percentOff(10), categoryPath: "花束"), by: .commandLine(user: "test"))
        _ = try shop.shop.coupons.create(NewCoupon(code: "ROSE10", rule: .percentOff(10), categoryPath: "花束/玫瑰"), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        let bouquets = try shop.couponBuy(buyer, [(rose, 1), (lily, 1), (plant, 1)], coupon: "BOUQUET10", key: "k1").order
        #expect(bouquets.discountCents == 1_500)
        let roses = try shop.couponBuy(buyer, [(rose, 1), (lily, 1), (plant, 1)], coupon: "ROSE10", key: "k2").order
        #expect(roses.discountCents == 1_000)
        #expect(throws: CouponError.notApplicable(code: "ROSE10", category: "花束/玫瑰")) {
            try shop.couponBuy(buyer, [(plant, 1)], coupon: "ROSE10", key: "k3")
        }
        #expect(throws: CouponError.unknownCategory("没有这类")) {
            try shop.shop.coupons.create(NewCoupon(code: "NOPE1", rule: .percentOff(10), categoryPath: "没有这类"), by: .commandLine(user: "test"))
        }
    }

    @Test func startsAndEndsFollowTheInjectedClock() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        let now = shop.clock.now
        _ = try shop.shop.coupons.create(NewCoupon(code: "LATER", rule: .amountOff(cents: 1_000),
                                                   startsAt: now.addingTimeInterval(3_600), endsAt: now.addingTimeInterval(7_200)), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        #expect(throws: CouponError.unknown(code: "LATER"), "a code not started yet is told apart from a guess by nothing") {
            try shop.couponBuy(buyer, [(sku, 1)], coupon: "LATER", key: "k1")
        }
        shop.clock.advance(by: 3_600)
        #expect(try shop.couponBuy(buyer, [(sku, 1)], coupon: "LATER", key: "k2").order.discountCents == 1_000)
        shop.clock.advance(by: 3_599)
        #expect(try shop.couponBuy(buyer, [(sku, 1)], coupon: "LATER", key: "k3").order.discountCents == 1_000)
        shop.clock.advance(by: 1)
        #expect(throws: CouponError.expired(code: "LATER", endsAt: now.addingTimeInterval(7_200))) {
            try shop.couponBuy(buyer, [(sku, 1)], coupon: "LATER", key: "k4")
        }
    }

    @Test func aDisabledCouponIsRefusedButOrdersThatUsedItKeepTheirDiscount() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "100.00", "花束/玫瑰")])["A"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "GONE", rule: .amountOff(cents: 1_000)), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        let first = try shop.couponBuy(buyer, [(sku, 1)], coupon: "GONE", key: "k1").order
        let disabled = try shop.shop.coupons.disable(code: "gone", by: .commandLine(user: "test"))
        #expect(disabled.state(at: shop.clock.now) == "disabled")
        #expect(throws: CouponError.disabled(code: "GONE")) { try shop.couponBuy(buyer, [(sku, 1)], coupon: "GONE", key: "k2") }
        #expect(try shop.shop.orders.order(first.id, for: buyer.user).discountCents == 1_000)
        #expect(throws: CouponError.notFound("NOSUCH")) { try shop.shop.coupons.disable(code: "nosuch", by: .commandLine(user: "test")) }
    }

    @Test func codesAreCaseInsensitiveUniqueAndLimited() throws {
        let shop = try TestShop()
        _ = try shop.shop.coupons.create(NewCoupon(code: "Spring-2026_a", rule: .percentOff(5)), by: .commandLine(user: "test"))
        #expect(throws: CouponError.codeTaken("SPRING-2026_A")) {
            try shop.shop.coupons.create(NewCoupon(code: "spring-2026_A", rule: .percentOff(5)), by: .commandLine(user: "test"))
        }
        for bad in ["AB", String(repeating: "A", count: 33), "春天好", "SPRING 26", "A%B", ""] {
            #expect(throws: ValidationError.self, "\(bad)") { try shop.shop.coupons.create(NewCoupon(code: bad, rule: .percentOff(5)), by: .commandLine(user: "test")) }
        }
        #expect(throws: ValidationError.self) { try shop.shop.coupons.create(NewCoupon(code: "P100", rule: .percentOff(100)), by: .commandLine(user: "test")) }
        #expect(throws: ValidationError.self) { try shop.shop.coupons.create(NewCoupon(code: "ZERO", rule: .amountOff(cents: 0)), by: .commandLine(user: "test")) }
        let now = shop.clock.now
        #expect(throws: ValidationError.self) {
            try shop.shop.coupons.create(NewCoupon(code: "BACKWARDS", rule: .percentOff(5), startsAt: now, endsAt: now), by: .commandLine(user: "test"))
        }
        let sku = try #require(try shop.couponSeed([("A", "10.00", "花束/玫瑰")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        #expect(throws: CouponError.unknown(code: "NOSUCH")) { try shop.couponBuy(buyer, [(sku, 1)], coupon: "nosuch", key: "k1") }
        #expect(throws: ValidationError("coupon_code", .couponCode, .range(CouponCode.lengths))) {
            try shop.couponBuy(buyer, [(sku, 1)], coupon: "no such", key: "k2")
        }
        #expect(try shop.couponBuy(buyer, [(sku, 1)], coupon: "spring-2026_a", key: "k3").order.coupon?.code == "SPRING-2026_A")
    }

    @Test func theCartShowsTheDiscountOfItsSelectedLinesWithoutTakingAUse() throws {
        let shop = try TestShop()
        let skus = try shop.couponSeed([("A", "100.00", "花束/玫瑰"), ("B", "60.00", "花束/玫瑰")])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        _ = try shop.shop.coupons.create(NewCoupon(code: "TEN", rule: .percentOff(10), maxUses: 1), by: .commandLine(user: "test"))
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.carts.add(a, quantity: 2, for: buyer.user)
        let cart = try shop.shop.carts.add(b, quantity: 1, for: buyer.user)
        let line = try #require(cart.lines.first { $0.skuID == b })
        _ = try shop.shop.carts.update(line.id, quantity: nil, selected: false, for: buyer.user)
        let shown = try shop.shop.carts.cart(of: buyer.user, couponCode: "ten", clientIP: "127.0.0.1")
        #expect(shown.discountCents == 2_000)
        #expect(shown.coupon == AppliedCoupon(code: "TEN", description: "9折", discountCents: 2_000))
        #expect(try shop.shop.carts.cart(of: buyer.user, couponCode: nil, clientIP: "127.0.0.1").coupon == nil)
        #expect(try shop.couponUses("TEN") == 0)
        let order = try shop.shop.orders.checkout(CheckoutRequest(addressID: buyer.address, couponCode: "TEN"),
                                                  idempotencyKey: try IdempotencyKey("cart-1"), for: buyer.user, clientIP: "127.0.0.1").order
        #expect(order.discountCents == shown.discountCents)
        #expect(order.totalCents == 20_000 - 2_000)
    }

    @Test func defaultDescriptionsReadLikeAShopsOwn() {
        #expect(CouponService.describe(NewCoupon(code: "X", rule: .amountOff(cents: 2_000), minSpendCents: 10_000)) == "满100减20元")
        #expect(CouponService.describe(NewCoupon(code: "X", rule: .percentOff(20))) == "8折")
        #expect(CouponService.describe(NewCoupon(code: "X", rule: .percentOff(15), minSpendCents: 19_950, categoryPath: "花束")) == "花束 满199.5享8.5折")
    }
}
