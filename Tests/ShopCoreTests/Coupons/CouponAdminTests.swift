import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Coupons: operators' edits, audited")
struct CouponAdminTests {
    static let actor = StaffActor.commandLine(user: "tester")

    func audit(_ shop: TestShop) throws -> [AuditEntry] {
        try AuditLog(pool: shop.pool).entries(AuditFilter(target: "coupon:SPRING"), page: try PageRequest()).items
    }

    @Test func creatingAndChangingACouponAreAuditedWithBeforeAndAfter() throws {
        let shop = try TestShop()
        let created = try shop.shop.coupons.create(NewCoupon(code: "spring", rule: .amountOff(cents: 1_000), maxUses: 5), by: Self.actor)
        let ends = Date(timeIntervalSince1970: 1_900_000_000)
        let changed = try shop.shop.coupons.update(code: "Spring", CouponChanges(endsAt: .some(ends), maxUses: .some(nil)), by: Self.actor)
        #expect(changed.endsAt == ends && changed.maxUses == nil && changed.id == created.id)
        let disabled = try shop.shop.coupons.update(code: "SPRING", CouponChanges(disabled: true), by: Self.actor)
        #expect(disabled.state(at: shop.clock.now) == "disabled")
        let again = try shop.shop.coupons.update(code: "SPRING", CouponChanges(disabled: false), by: Self.actor)
        #expect(again.disabledAt == nil && again.state(at: shop.clock.now) == "active")
        let entries = try audit(shop)
        #expect(entries.map(\.action) == ["coupon.update", "coupon.update", "coupon.update", "coupon.create"])
        #expect(entries.allSatisfy { $0.actor == "cli:tester" })
        let change = entries[2]
        #expect(change.before?.contains("\"max_uses\":5") == true && change.after?.contains("\"ends_at\":1900000000") == true)
    }

    @Test func anEndBeforeTheStartOrALimitBelowTheUsesHeldIsRefusedAndWritesNothing() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.couponSeed([("A", "50.00", "花束")])["A"])
        let starts = shop.clock.now.addingTimeInterval(-60)
        _ = try shop.shop.coupons.create(NewCoupon(code: "SPRING", rule: .amountOff(cents: 100), startsAt: starts, maxUses: 5), by: Self.actor)
        let buyer = try shop.orderBuyer("13900000001")
        try shop.couponBuy(buyer, [(sku, 1)], coupon: "SPRING", key: "k1")
        try shop.couponBuy(buyer, [(sku, 1)], coupon: "SPRING", key: "k2")
        #expect(throws: ValidationError.self) {
            try shop.shop.coupons.update(code: "SPRING", CouponChanges(endsAt: .some(starts.addingTimeInterval(-1))), by: Self.actor)
        }
        #expect(throws: ValidationError("max_uses", .wholeNumberInRange, .range(2...100_000_000))) {
            try shop.shop.coupons.update(code: "SPRING", CouponChanges(maxUses: .some(1)), by: Self.actor)
        }
        #expect(throws: CouponError.notFound("NOPE")) { try shop.shop.coupons.update(code: "nope", CouponChanges(disabled: true), by: Self.actor) }
        let coupon = try #require(try shop.shop.coupons.list().first)
        #expect(coupon.maxUses == 5 && coupon.endsAt == nil && coupon.uses == 2)
        #expect(try audit(shop).map(\.action) == ["coupon.create"])
        let lowered = try shop.shop.coupons.update(code: "SPRING", CouponChanges(maxUses: .some(2)), by: Self.actor)
        #expect(lowered.state(at: shop.clock.now) == "used_up")
    }
}
