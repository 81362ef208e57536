import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// Coupons as a storefront meets them: the cart's discount, checkout with `coupon_code`, the order's echo, the 422.
@Suite("Coupons API")
struct CouponAPITests {
    static let english = [("Accept-Language", "en-US,en;q=0.9")]

    func cart(_ app: TestAPI, _ buyer: OrderAPIBuyer, code: String?, headers: [(String, String)] = [],
              from clientIP: String = "10.0.0.1") throws -> TestResponse {
        try app.send("GET", "/api/v1/cart", query: code.map { ["coupon_code": $0] } ?? [:], token: buyer.token, headers: headers,
                     from: clientIP)
    }

    /// The message of a `coupon_invalid` answer with the code it names taken out.
    func message(_ response: TestResponse, without code: String) -> String? {
        response.error?.message.replacingOccurrences(of: code, with: "…")
    }

    /// A code that starts next month and a guess get the same answer, on the cart and at checkout,
    /// in both languages: an unannounced code cannot be found by guessing.
    @Test func anUnknownCodeAndOneNotValidYetAnswerAlike() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "50.00", 10)])["A"])
        _ = try app.shop.coupons.create(NewCoupon(code: "NEWYEAR", rule: .amountOff(cents: 1_000),
                                                  startsAt: app.clock.now.addingTimeInterval(30 * 86_400)), by: .commandLine(user: "test"))
        let buyer = try app.orderBuyer("13900000001")
        _ = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 1], token: buyer.token)
        for headers in [Self.english, []] {
            let later = try cart(app, buyer, code: "NEWYEAR", headers: headers)
            let guess = try cart(app, buyer, code: "NEWYEAZ", headers: headers)
            expectError(later, 422, "coupon_invalid")
            expectError(guess, 422, "coupon_invalid")
            #expect(message(later, without: "NEWYEAR") == message(guess, without: "NEWYEAZ"), "\(later.text) \(guess.text)")
            #expect(later.text.replacingOccurrences(of: "NEWYEAR", with: "…")
                    == guess.text.replacingOccurrences(of: "NEWYEAZ", with: "…"))
        }
        let placedLater = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "coupon_code": "NEWYEAR"])
        let placedGuess = try app.orderPlace(buyer, key: "k2", ["address_id": buyer.addressID, "coupon_code": "NEWYEAZ"])
        expectError(placedLater, 422, "coupon_invalid")
        #expect(message(placedLater, without: "NEWYEAR") == message(placedGuess, without: "NEWYEAZ"))
    }

    /// Ten refused codes in a minute, then 429 `too_many_attempts` with `Retry-After` for any code,
    /// on the cart and at checkout, until the first refusal is a minute old; the cart itself stays open.
    @Test func guessingCodesIs429AfterTheBuyersTenthRefusal() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "50.00", 10)])["A"])
        _ = try app.shop.coupons.create(NewCoupon(code: "GOOD", rule: .amountOff(cents: 1_000)), by: .commandLine(user: "test"))
        let buyer = try app.orderBuyer("13900000001")
        _ = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 1], token: buyer.token)
        for index in 0..<5 { expectError(try cart(app, buyer, code: "GUESS\(index)"), 422, "coupon_invalid") }
        for _ in 0..<3 { #expect(try cart(app, buyer, code: "GOOD").status == 200, "a code that applies is not a refusal") }
        app.clock.advance(by: 10)
        for index in 0..<4 { expectError(try cart(app, buyer, code: "MORE\(index)"), 422, "coupon_invalid") }
        let placed = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "coupon_code": "LAST"])
        expectError(placed, 422, "coupon_invalid")

        let refused = try cart(app, buyer, code: "GOOD")
        expectError(refused, 429, "too_many_attempts")
        #expect(refused.headers["Retry-After"] == "50")
        #expect(refused.error?.retryAfter == 50)
        expectError(try app.orderPlace(buyer, key: "k2", ["address_id": buyer.addressID, "coupon_code": "GOOD"]), 429,
                    "too_many_attempts")
        #expect(try cart(app, buyer, code: nil).status == 200)

        app.clock.advance(by: 50)
        #expect(try cart(app, buyer, code: "GOOD").decode(CartResponse.self).discountCents == 1_000, "the five oldest have left the window")
        let placedAtLast = try app.orderPlace(buyer, key: "k3", ["address_id": buyer.addressID, "coupon_code": "GOOD"])
        #expect(placedAtLast.status == 201, "\(placedAtLast.text)")
    }

    /// Refusals from one address count across buyers (`coupons.max_failures_per_ip`); another address is not held back.
    @Test func guessingFromManyAccountsAtOneAddressIs429Too() throws {
        let app = try TestAPI { $0.coupons.maxFailuresPerIP = 3 }
        let sku = try #require(try app.orderSeed([("A", "50.00", 10)])["A"])
        let buyers = try (1...4).map { try app.orderBuyer("1390000000\($0)") }
        for buyer in buyers {
            _ = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 1], token: buyer.token)
        }
        for (index, buyer) in buyers.prefix(3).enumerated() {
            expectError(try cart(app, buyer, code: "GUESS\(index)", from: "10.0.30.1"), 422, "coupon_invalid")
        }
        expectError(try cart(app, buyers[3], code: "GUESS9", from: "10.0.30.1"), 429, "too_many_attempts")
        expectError(try cart(app, buyers[3], code: "GUESS9", from: "10.0.30.2"), 422, "coupon_invalid")
    }

    @Test func theCartShowsTheDiscountAndCheckoutRecordsItOnTheOrder() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "129.00", 10), ("B", "59.90", 10)])
        _ = try app.shop.coupons.create(NewCoupon(code: "SPRING20", rule: .amountOff(cents: 2_000), minSpendCents: 10_000), by: .commandLine(user: "test"))
        let buyer = try app.orderBuyer("13900000001")
        for (code, quantity) in [("A", 1), ("B", 2)] {
            let added = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": try #require(skus[code]), "quantity": quantity],
                                     token: buyer.token)
            #expect(added.status == 201, "\(added.text)")
            let plain = try added.decode(CartResponse.self)
            #expect(plain.discountCents == 0)
            #expect(plain.coupon == nil)
            #expect(added.text.contains("\"coupon\":null"))
        }
        let shown = try cart(app, buyer, code: "spring20")
        #expect(shown.status == 200, "\(shown.text)")
        let discounted = try shown.decode(CartResponse.self)
        #expect(discounted.selectedTotalCents == 12_900 + 11_980)
        #expect(discounted.discountCents == 2_000)
        let coupon = try #require(discounted.coupon)
        #expect(coupon.code == "SPRING20")
        #expect(coupon.description == "满100减20元")
        #expect(shown.keys(of: "coupon") == ["code", "description"])

        let placed = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "coupon_code": "Spring20"])
        #expect(placed.status == 201, "\(placed.text)")
        let order = try placed.decode(OrderResponse.self)
        #expect(order.discountCents == 2_000)
        #expect(order.totalCents == 12_900 + 11_980 - 2_000)
        #expect(order.coupon?.code == "SPRING20")
        let id = try #require(placed.orderID)
        let shownOrder = try app.orderGet("/api/v1/orders/\(id)", token: buyer.token)
        #expect(shownOrder.order?.discountCents == 2_000)
        #expect(shownOrder.order?.coupon?.description == "满100减20元")

        let replay = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "coupon_code": "SPRING20"])
        #expect(replay.status == 200, "\(replay.text)")
        #expect(replay.orderID == id)
        let reused = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID])
        expectError(reused, 409, "idempotency_key_reused")
    }

    @Test func aCouponThatDoesNotApplyIsA422SayingWhyInTheBuyersLanguage() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "50.00", 10)])["A"])
        _ = try app.shop.coupons.create(NewCoupon(code: "BIG", rule: .amountOff(cents: 2_000), minSpendCents: 10_000), by: .commandLine(user: "test"))
        let buyer = try app.orderBuyer("13900000001")
        _ = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 1], token: buyer.token)

        let unknown = try cart(app, buyer, code: "NOPE", headers: Self.english)
        expectError(unknown, 422, "coupon_invalid")
        #expect(unknown.error?.field == "coupon_code")
        #expect(unknown.error?.message == "Coupon NOPE does not exist or is not valid yet.")

        let minSpend = try cart(app, buyer, code: "big")
        expectError(minSpend, 422, "coupon_invalid")
        #expect(minSpend.error?.message == "优惠码 BIG 需满 100.00 元才能使用。")

        let placed = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "coupon_code": "BIG"])
        expectError(placed, 422, "coupon_invalid")
        #expect(try app.shop.orders.orders(for: UserID(buyer.userID), status: nil, page: PageRequest()).total == 0)
        let cartAfter = try cart(app, buyer, code: nil)
        #expect(try cartAfter.decode(CartResponse.self).items.count == 1, "a refused checkout leaves the cart as it was")

        _ = try app.shop.coupons.disable(code: "BIG", by: .commandLine(user: "test"))
        let disabled = try app.orderPlace(buyer, key: "k2", orderBuyNowBody(app, buyer, sku, quantity: 3, code: "BIG"))
        expectError(disabled, 422, "coupon_invalid")
        #expect(disabled.error?.message.contains("停用") == true, "\(disabled.text)")
    }

    @Test func aMalformedCodeIsA400NamingTheField() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "50.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        for bad in ["AB", "has space", String(repeating: "X", count: 33), "优惠"] {
            let shown = try cart(app, buyer, code: bad)
            expectError(shown, 400, "validation_failed")
            #expect(shown.error?.field == "coupon_code")
            let placed = try app.orderPlace(buyer, key: "k-\(bad.count)", orderBuyNowBody(app, buyer, sku, quantity: 1, code: bad))
            expectError(placed, 400, "validation_failed")
        }
        let wrongType = try app.orderPlace(buyer, key: "k", ["address_id": buyer.addressID, "coupon_code": 12345])
        #expect(wrongType.status == 400)
        // Untyped on purpose: a request body with an explicit null.
        let null = try app.orderPlace(buyer, key: "k-null", ["address_id": buyer.addressID, "items": [["sku_id": sku, "quantity": 1]],
                                                             "coupon_code": NSNull()])
        #expect(null.status == 201, "\(null.text)")
        #expect(try null.decode(OrderResponse.self).coupon == nil)
        #expect(null.text.contains("\"coupon\":null"))
    }

    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
    func orderBuyNowBody(_ app: TestAPI, _ buyer: OrderAPIBuyer, _ sku: Int64, quantity: Int, code: String) -> [String: Any] {
        var body = app.orderBuyNowBody(buyer, [(sku, quantity)])
        body["coupon_code"] = code
        return body
    }
}
