import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// `GET /shop-info`: the shop's name and customer-service contact from the settings, for the
/// storefront to show beside the 99-item message.
@Suite("API: shop info")
struct ShopInfoAPITests {
    @Test func theShopsNameAndServiceContactComeFromTheSettings() throws {
        let api = try TestAPI {
            $0.app.name = "花间小铺"
            $0.app.serviceContact = "微信 floral-kefu · 400-820-1314"
            $0.app.timezone = "Asia/Urumqi"
        }
        let response = try api.send("GET", "/api/v1/shop-info")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.keys == ["name", "service_contact", "timezone"])
        let info = try response.decode(ShopInfoController.ShopInfoResponse.self)
        #expect(info.name == "花间小铺")
        #expect(info.serviceContact == "微信 floral-kefu · 400-820-1314")
        #expect(info.timezone == "Asia/Urumqi")
    }

    @Test func byDefaultTheShopHasItsDefaultNameAndNoContact() throws {
        let info = try TestAPI().send("GET", "/api/v1/shop-info").decode(ShopInfoController.ShopInfoResponse.self)
        #expect(info.name == "花田小憩")
        #expect(info.serviceContact == "")
        #expect(info.timezone == "Asia/Shanghai")
    }

    @Test func theAnswerIsCacheableAndRevalidatesTo304() throws {
        let api = try TestAPI { $0.app.serviceContact = "13800138000" }
        let first = try api.send("GET", "/api/v1/shop-info")
        #expect(first.headers["Cache-Control"] == "public, max-age=300")
        let etag = try #require(first.headers["ETag"])
        let again = try api.send("GET", "/api/v1/shop-info", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        let other = try TestAPI { $0.app.serviceContact = "13900139000" }.send("GET", "/api/v1/shop-info", headers: [("If-None-Match", etag)])
        #expect(other.status == 200, "another contact is another body")
    }
}
