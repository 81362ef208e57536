import SQL
import ShopCore
import ShopTestSupport
import Testing

@Suite("Housekeeping of spent records")
struct HousekeepingTests {
    private func count(_ table: String, _ fixture: TestShop) throws -> Int64 {
        try fixture.pool.read { try $0.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier(table))") } ?? -1
    }

    @Test func spentCodesTokensAndFailuresAreDroppedOnlyOnceTheyCanNoLongerMatter() throws {
        let fixture = try TestShop()
        let session = try fixture.register("13800138000")
        try fixture.accounts.logout(token: session.token)
        #expect(throws: AccountError.invalidCredentials) { try fixture.login("13800138000", password: "wrong-password") }
        _ = try fixture.sendCode(to: "13900139000", for: .register)

        try fixture.verification.purgeSpentCodes()
        try fixture.accounts.purgeSpentRecords()
        #expect(try count("verification_codes", fixture) == 2)
        #expect(try count("auth_tokens", fixture) == 1)
        #expect(try count("login_failures", fixture) == 1)

        fixture.clock.advance(by: 3 * 86_400)
        try fixture.verification.purgeSpentCodes()
        try fixture.accounts.purgeSpentRecords()
        #expect(try count("verification_codes", fixture) == 0)
        #expect(try count("auth_tokens", fixture) == 0)
        #expect(try count("login_failures", fixture) == 0)
    }

    @Test func refusedCouponCodesAreDroppedOnceOutsideTheirWindow() throws {
        let fixture = try TestShop()
        let user = try fixture.register("13800138000").user.id
        #expect(throws: CouponError.unknown(code: "NOSUCH")) {
            try fixture.shop.carts.cart(of: user, couponCode: "nosuch", clientIP: "10.0.0.1")
        }
        try fixture.shop.couponAttempts.purgeSpentRecords()
        #expect(try count("coupon_failures", fixture) == 1)
        fixture.clock.advance(by: Double(fixture.config.coupons.failureWindowSeconds + 1))
        try fixture.shop.couponAttempts.purgeSpentRecords()
        #expect(try count("coupon_failures", fixture) == 0)
    }

    @Test func aLiveTokenSurvivesHousekeeping() throws {
        let fixture = try TestShop()
        let session = try fixture.register("13800138000")
        fixture.clock.advance(by: 3 * 86_400)
        try fixture.accounts.purgeSpentRecords()
        #expect(try fixture.accounts.authenticate(token: session.token) == session.user.id)
    }

    @Test func theSearchLogKeepsThirtyDays() throws {
        let fixture = try TestShop()
        _ = try fixture.shop.catalog.products(ProductQuery(text: "玫瑰", page: try PageRequest()), unlessAt: nil).current
        fixture.shop.catalog.flushSearches()
        fixture.clock.advance(by: 29 * 86_400)
        try fixture.shop.catalog.purgeSearchLog()
        #expect(try count("search_counts", fixture) == 1)
        fixture.clock.advance(by: 2 * 86_400)
        try fixture.shop.catalog.purgeSearchLog()
        #expect(try count("search_counts", fixture) == 0)
    }
}
