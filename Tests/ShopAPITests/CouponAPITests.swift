import Foundation
import HTTP
@testable import ShopCore
import ShopTestSupport
import Testing

/// Coupons as a storefront meets them: the cart's discount, checkout with `coupon_code`, the order's echo, the 422.
@Suite("Coupons API")
struct CouponAPITests {
    static let english = [("Accept-Language", "en-US,en;q=0.9")]

    func cart(_ app: TestAPI, _ buyer: OrderAPIBuyer, code: String?, headers: [(String, String)] = []) throws -> TestResponse {
        try app.send("GET", "/api/v1/cart", query: code.map { ["coupon_code": $0] } ?? [:], token: buyer.token, headers: headers)
    }

    @Test func theCartShowsTheDiscountAndCheckoutRecordsItOnTheOrder() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "129.00", 10), ("B", "59.90", 10)])
        _ = try app.shop.coupons.create(NewCoupon(code: "SPRING20", rule: .amountOff(cents: 2_000), minSpendCents: 10_000))
        let buyer = try app.orderBuyer("13900000001")
        for (code, quantity) in [("A", 1), ("B", 2)] {
            let added = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": try #require(skus[code]), "quantity": quantity],
                                     token: buyer.token)
            #expect(added.status == 201, "\(added.text)")
            #expect(added.json["discount_cents"] as? Int == 0)
            #expect(added.json["coupon"] is NSNull)
        }
        let shown = try cart(app, buyer, code: "spring20")
        #expect(shown.status == 200, "\(shown.text)")
        #expect(shown.json["selected_total_cents"] as? Int == 12_900 + 11_980)
        #expect(shown.json["discount_cents"] as? Int == 2_000)
        let coupon = try #require(shown.json["coupon"] as? [String: Any])
        #expect(coupon["code"] as? String == "SPRING20")
        #expect(coupon["description"] as? String == "满100减20元")
        #expect(Set(coupon.keys) == ["code", "description"])

        let placed = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "coupon_code": "Spring20"])
        #expect(placed.status == 201, "\(placed.text)")
        #expect(placed.json["discount_cents"] as? Int == 2_000)
        #expect(placed.json["total_cents"] as? Int == 12_900 + 11_980 - 2_000)
        #expect((placed.json["coupon"] as? [String: Any])?["code"] as? String == "SPRING20")
        let id = try #require(placed.orderID)
        let shownOrder = try app.orderGet("/api/v1/orders/\(id)", token: buyer.token)
        #expect(shownOrder.json["discount_cents"] as? Int == 2_000)
        #expect((shownOrder.json["coupon"] as? [String: Any])?["description"] as? String == "满100减20元")

        let replay = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "coupon_code": "SPRING20"])
        #expect(replay.status == 200, "\(replay.text)")
        #expect(replay.orderID == id)
        let reused = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID])
        expectError(reused, 409, "idempotency_key_reused")
    }

    @Test func aCouponThatDoesNotApplyIsA422SayingWhyInTheBuyersLanguage() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "50.00", 10)])["A"])
        _ = try app.shop.coupons.create(NewCoupon(code: "BIG", rule: .amountOff(cents: 2_000), minSpendCents: 10_000))
        let buyer = try app.orderBuyer("13900000001")
        _ = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 1], token: buyer.token)

        let unknown = try cart(app, buyer, code: "NOPE", headers: Self.english)
        expectError(unknown, 422, "coupon_invalid")
        #expect(unknown.error["field"] as? String == "coupon_code")
        #expect(unknown.error["message"] as? String == "There is no coupon NOPE.")

        let minSpend = try cart(app, buyer, code: "big")
        expectError(minSpend, 422, "coupon_invalid")
        #expect(minSpend.error["message"] as? String == "优惠码 BIG 需满 100.00 元才能使用。")

        let placed = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "coupon_code": "BIG"])
        expectError(placed, 422, "coupon_invalid")
        #expect(try app.shop.orders.orders(for: UserID(buyer.userID), status: nil, page: PageRequest()).total == 0)
        let cartAfter = try cart(app, buyer, code: nil)
        #expect((cartAfter.json["items"] as? [Any])?.count == 1, "a refused checkout leaves the cart as it was")

        _ = try app.shop.coupons.disable(code: "BIG")
        let disabled = try app.orderPlace(buyer, key: "k2", orderBuyNowBody(app, buyer, sku, quantity: 3, code: "BIG"))
        expectError(disabled, 422, "coupon_invalid")
        #expect((disabled.error["message"] as? String)?.contains("停用") == true, "\(disabled.text)")
    }

    @Test func aMalformedCodeIsA400NamingTheField() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "50.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        for bad in ["AB", "has space", String(repeating: "X", count: 33), "优惠"] {
            let shown = try cart(app, buyer, code: bad)
            expectError(shown, 400, "validation_failed")
            #expect(shown.error["field"] as? String == "coupon_code")
            let placed = try app.orderPlace(buyer, key: "k-\(bad.count)", orderBuyNowBody(app, buyer, sku, quantity: 1, code: bad))
            expectError(placed, 400, "validation_failed")
        }
        let wrongType = try app.orderPlace(buyer, key: "k", ["address_id": buyer.addressID, "coupon_code": 12345])
        #expect(wrongType.status == 400)
        let null = try app.orderPlace(buyer, key: "k-null", ["address_id": buyer.addressID, "items": [["sku_id": sku, "quantity": 1]],
                                                             "coupon_code": NSNull()])
        #expect(null.status == 201, "\(null.text)")
        #expect(null.json["coupon"] is NSNull)
    }

    func orderBuyNowBody(_ app: TestAPI, _ buyer: OrderAPIBuyer, _ sku: Int64, quantity: Int, code: String) -> [String: Any] {
        var body = app.orderBuyNowBody(buyer, [(sku, quantity)])
        body["coupon_code"] = code
        return body
    }
}
