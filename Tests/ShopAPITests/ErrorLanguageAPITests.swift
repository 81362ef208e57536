import Foundation
import HTTP
@testable import ShopCore
import ShopTestSupport
import Testing

/// Every error answer speaks the shopper's language: Chinese unless `Accept-Language` prefers
/// English; the `code` and status never change with it.
@Suite("API errors in Chinese and English")
struct ErrorLanguageAPITests {
    static let english = [("Accept-Language", "en-US,en;q=0.9")]

    /// Imports one product with one SKU as the storefront shows it; answers the SKU's id.
    func seedBouquet(_ app: TestAPI, stock: Int) throws -> Int64 {
        let csv = """
            product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status
            RR,RR-19,19枝,红玫瑰花束·热恋,,花束/玫瑰,199.00,,\(stock),,,,,on_sale

            """
        let outcome = try app.shop.catalogImporter.importData(Array(csv.utf8), format: .csv, options: .init())
        guard outcome.issues.isEmpty else { throw FixtureError("seed rejected: \(outcome.issues)") }
        return try app.shop.pool.read { db in
            try #require(try db.queryOne("SELECT id FROM skus WHERE code = 'RR-19'")).int64("id")
        }
    }

    @Test func anErrorIsChineseByDefaultAndEnglishWhenTheRequestAsks() throws {
        let app = try TestAPI()
        let chinese = try app.send("GET", "/api/v1/products/987654")
        expectError(chinese, 404, "not_found")
        #expect(chinese.error?.message == "商品不存在或已下架。")
        #expect(chinese.headers["Content-Language"] == "zh-Hans")
        #expect(chinese.headers["Vary"] == "Accept-Language")

        let english = try app.send("GET", "/api/v1/products/987654", headers: Self.english)
        expectError(english, 404, "not_found")
        #expect(english.error?.message == "No such product on sale.")
        #expect(english.headers["Content-Language"] == "en")
        #expect(english.headers["Vary"] == "Accept-Language")

        for header in ["fr-FR", "*", "zh-TW", "garbage;;q=x"] {
            let answer = try app.send("GET", "/api/v1/products/987654", headers: [("Accept-Language", header)])
            #expect(answer.error?.message == "商品不存在或已下架。", "\(header)")
        }
    }

    @Test func outOfStockNamesTheSKUAsTheShopperSeesIt() throws {
        let app = try TestAPI()
        let sku = try seedBouquet(app, stock: 86)
        let (token, _) = try app.cartSignUp("13900000001")

        let refused = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 87], token: token)
        expectError(refused, 409, "out_of_stock")
        #expect(refused.error?.message == "红玫瑰花束·热恋 19枝 只剩 86 件")
        #expect(refused.error?.field == "quantity")
        let english = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 87], token: token,
                                   headers: Self.english)
        expectError(english, 409, "out_of_stock")
        #expect(english.error?.message == "红玫瑰花束·热恋 19枝 has only 86 in stock.")
        let englishMessage = english.error?.message ?? ""
        #expect(!englishMessage.contains("SKU"), "never an internal id")
    }

    @Test func checkingOutMoreThanTheStockNamesTheSKUToo() throws {
        let app = try TestAPI()
        let sku = try seedBouquet(app, stock: 2)
        let buyer = try app.orderBuyer("13900000002")

        let refused = try app.orderPlace(buyer, key: "k1", app.orderBuyNowBody(buyer, [(sku, 3)]))
        expectError(refused, 409, "out_of_stock")
        #expect(refused.error?.message == "红玫瑰花束·热恋 19枝 只剩 2 件")
        #expect(refused.error?.field == "sku_id")
    }

    @Test func aSoldOutSKUIsSaidToBeSoldOut() throws {
        let app = try TestAPI()
        let sku = try seedBouquet(app, stock: 0)
        let (token, _) = try app.cartSignUp("13900000003")

        let refused = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 1], token: token)
        expectError(refused, 409, "out_of_stock")
        #expect(refused.error?.message == "红玫瑰花束·热恋 19枝 已售罄")
        let english = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 1], token: token,
                                   headers: Self.english)
        #expect(english.error?.message == "红玫瑰花束·热恋 19枝 is sold out.")
    }

    @Test func aValidationMessageNamesTheFieldAsTheShopperKnowsIt() throws {
        let app = try TestAPI()
        let sku = try seedBouquet(app, stock: 10)
        let (token, _) = try app.cartSignUp("13900000004")

        let chinese = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 0], token: token)
        expectError(chinese, 400, "validation_failed")
        #expect(chinese.error?.message == "数量应为 1 到 99 之间的整数。")
        #expect(chinese.error?.field == "quantity")
        let english = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 0], token: token,
                                   headers: Self.english)
        expectError(english, 400, "validation_failed")
        #expect(english.error?.message == "quantity must be a whole number from 1 to 99.")
    }

    @Test func theVerificationCodeMessageIsChineseInTheStorefront() throws {
        let app = try TestAPI()
        _ = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": "13900000005", "purpose": "register"])
        // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
        let body: [String: Any] = ["phone": "13900000005", "code": "000000", "password": TestAPI.password]
        let chinese = try app.send("POST", "/api/v1/auth/register", json: body)
        expectError(chinese, 422, "invalid_code")
        #expect(chinese.error?.message == "验证码错误、已过期或已使用，请重新获取。")
        let english = try app.send("POST", "/api/v1/auth/register", json: body, headers: Self.english)
        expectError(english, 422, "invalid_code")
        #expect(english.error?.message == "The code is wrong, expired or already used. Ask for a new one.")
    }

    @Test func theHTTPLayersOwnErrorsFollowTheRequestToo() throws {
        let app = try TestAPI()
        let noRoute = try app.send("GET", "/api/v1/nowhere", headers: Self.english)
        expectError(noRoute, 404, "not_found")
        #expect(noRoute.error?.message == "No route for /api/v1/nowhere.")
        let notJSON = try app.send("POST", "/api/v1/auth/login", headers: [("Content-Type", "text/plain")])
        expectError(notJSON, 415, "unsupported_media_type")
        #expect(notJSON.error?.message == "请以 application/json 格式发送请求内容。")
        #expect(notJSON.headers["Content-Language"] == "zh-Hans")
    }

    @Test func aRetryAfterMessageCarriesTheSecondsInBothLanguages() throws {
        let app = try TestAPI()
        let body = ["phone": "13900000006", "purpose": "register"]
        _ = try app.send("POST", "/api/v1/auth/verification-codes", json: body)
        let chinese = try app.send("POST", "/api/v1/auth/verification-codes", json: body)
        expectError(chinese, 429, "code_cooldown")
        let seconds = try #require(chinese.error?.retryAfter)
        #expect(chinese.error?.message == "验证码已发送，请 \(seconds) 秒后再试。")
        let english = try app.send("POST", "/api/v1/auth/verification-codes", json: body, headers: Self.english)
        #expect(english.error?.message == "A code was sent recently; ask again in \(seconds) seconds.")
    }
}
