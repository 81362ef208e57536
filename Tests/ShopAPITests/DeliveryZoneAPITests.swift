import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// Delivery zones over HTTP (issue 32): the operators' routes, the quote, the cart's preview and
/// checkout. The order buyers' address is typed by hand: 浙江省 杭州市 西湖区 (330106).
@Suite("API: delivery zones")
struct DeliveryZoneAPITests {
    /// 杭州 (the whole city) at ¥8, free from ¥100; 深圳's 南山区 at ¥15 without same-day delivery.
    // Untyped on purpose: a request body.
    static var twoZones: [String: Any] { ["zones": [
        ["name": "杭州", "region_codes": ["330100"], "fee_cents": 800, "free_over_cents": 10_000, "same_day": true],
        ["name": "南山", "region_codes": ["440305"], "fee_cents": 1_500, "same_day": false],
    ]] }

    func putZones(_ api: TestAPI, _ body: Any, token: String, language: String = "en") throws -> TestResponse {
        try api.send("PUT", "/api/v1/admin/delivery/zones", json: body, token: token, headers: [("Accept-Language", language)])
    }

    @Test func aManagerReplacesTheZonesAndReadsThemBack() throws {
        let api = try TestAPI()
        let manager = try api.staffToken(.manager)
        let put = try putZones(api, Self.twoZones, token: manager)
        #expect(put.status == 200, "\(put.text)")
        let zones = try put.decode(DeliveryZonesResponse.self).zones
        #expect(zones.map(\.name) == ["杭州", "南山"])
        #expect(zones[0].regionCodes == [RegionCode("330100")!] && zones[0].freeOverCents == 10_000 && zones[0].sameDay)
        #expect(zones[1].freeOverCents == nil && !zones[1].sameDay && put.text.contains("\"free_over_cents\":null"))
        let got = try api.send("GET", "/api/v1/admin/delivery/zones", token: manager)
        #expect(got.status == 200 && got.text == put.text, "\(got.text)")
        let audit = try api.send("GET", "/api/v1/admin/audit", query: ["target": "delivery_zones"], token: manager)
        #expect(audit.text.contains("\"action\":\"delivery.zones\"") && audit.text.contains("\"actor\":\"manager\""), "\(audit.text)")
        // what GET answers, PUT takes back unchanged
        let again = try api.send("PUT", "/api/v1/admin/delivery/zones", json: try JSONSerialization.jsonObject(with: Data(got.text.utf8)),
                                 token: manager)
        #expect(again.status == 200 && again.text == put.text)
    }

    @Test func aRefusedSetIs422ListingEveryProblemAndChangesNothing() throws {
        let api = try TestAPI()
        let owner = try api.staffToken(.owner)
        #expect(try putZones(api, Self.twoZones, token: owner).status == 200)
        // Untyped on purpose: a request body with bad values.
        let bad: [String: Any] = ["zones": [
            ["name": "市区", "region_codes": ["330100"], "fee_cents": 800, "same_day": true],
            ["name": "西湖", "region_codes": ["330106", "990000"], "fee_cents": -1, "same_day": true],
        ]]
        let refused = try putZones(api, bad, token: owner)
        expectError(refused, 422, "invalid_zones")
        #expect(refused.error?.field == "zones")
        let message = refused.error?.message ?? ""
        #expect(message.contains("zone 2: 330106 (西湖区) lies inside 330100 (杭州市) of zone 1"), "\(message)")
        #expect(message.contains("zone 2: 990000 is not a region code the shop knows"), "\(message)")
        #expect(message.contains("zone 2: fee_cents must be a whole number of cents from 0 to 100000"), "\(message)")
        let chinese = try putZones(api, bad, token: owner, language: "zh")
        #expect(chinese.error?.message.contains("第 2 个区域：990000 不是本店认识的行政区划代码") == true, "\(chinese.text)")
        let kept = try api.send("GET", "/api/v1/admin/delivery/zones", token: owner).decode(DeliveryZonesResponse.self).zones
        #expect(kept.map(\.name) == ["杭州", "南山"])
        // fields are allow-listed, inside each zone too
        let extra = try putZones(api, ["zones": [["name": "x", "region_codes": ["330100"], "fee_cents": 0, "same_day": true, "colour": "red"]]],
                                 token: owner)
        expectError(extra, 400, "unknown_field")
        #expect(extra.error?.field == "zones.0.colour")
        expectError(try putZones(api, ["zones": [["name": "x", "region_codes": ["330100"], "fee_cents": 0]]], token: owner),
                    400, "validation_failed")
    }

    @Test func theQuoteNamesTheZoneItsFeeAndTheDaysForOnesOwnAddressOnly() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "60.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001"), other = try api.orderBuyer("13900000002")
        let free = try api.orderGet("/api/v1/delivery/quote", query: ["address_id": "\(buyer.addressID)", "sku_ids": "\(sku)"],
                                    token: buyer.token)
        #expect(free.status == 200, "\(free.text)")
        let unzoned = try free.decode(DeliveryQuoteController.QuoteResponse.self)
        #expect(unzoned.zone == nil && unzoned.feeCents == 0 && unzoned.dates.first?.date == "2026-12-01")
        _ = try putZones(api, Self.twoZones, token: try api.staffToken(.owner))
        let quote = try api.orderGet("/api/v1/delivery/quote", query: ["address_id": "\(buyer.addressID)", "sku_ids": "\(sku)"],
                                     token: buyer.token).decode(DeliveryQuoteController.QuoteResponse.self)
        #expect(quote.zone?.name == "杭州" && quote.zone?.freeOverCents == 10_000 && quote.feeCents == 800)
        #expect(quote.dates.first?.date == "2026-12-01" && quote.dates.first?.slots == [.morning, .afternoon, .evening])
        expectError(try api.orderGet("/api/v1/delivery/quote", query: ["address_id": "\(buyer.addressID)"], token: other.token), 404, "not_found")
        expectError(try api.orderGet("/api/v1/delivery/quote", query: [:], token: buyer.token), 400, "validation_failed")
        expectError(try api.orderGet("/api/v1/delivery/quote", query: ["address_id": "x"], token: buyer.token), 400, "validation_failed")
        #expect(try api.send("GET", "/api/v1/delivery/quote", query: ["address_id": "\(buyer.addressID)"]).status == 401)
    }

    @Test func theCartPreviewWithAnAddressShowsTheFeeTheTotalAndTheFreeDeliveryHint() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "60.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001"), other = try api.orderBuyer("13900000002")
        #expect(try api.send("POST", "/api/v1/cart/items", json: ["sku_id": sku, "quantity": 1], token: buyer.token).status == 201)
        _ = try putZones(api, Self.twoZones, token: try api.staffToken(.owner))
        let plain = try api.orderGet("/api/v1/cart", token: buyer.token).decode(CartResponse.self)
        #expect(plain.deliveryFeeCents == 0 && plain.totalCents == 6_000 && plain.deliveryZone == nil)
        let preview = try api.orderGet("/api/v1/cart", query: ["address_id": "\(buyer.addressID)"], token: buyer.token)
        #expect(preview.status == 200, "\(preview.text)")
        let cart = try preview.decode(CartResponse.self)
        #expect(cart.deliveryFeeCents == 800 && cart.totalCents == 6_800 && cart.moreForFreeDeliveryCents == 4_000)
        #expect(cart.deliveryZone?.name == "杭州")
        expectError(try api.orderGet("/api/v1/cart", query: ["address_id": "\(buyer.addressID)"], token: other.token), 404, "not_found")
    }

    @Test func checkoutAddsTheFeeAndAnAddressOutsideEveryZoneIsRefusedWithAClearMessage() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "60.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        let owner = try api.staffToken(.owner)
        _ = try putZones(api, Self.twoZones, token: owner)
        let placed = try api.orderPlace(buyer, key: "k1", api.orderBuyNowBody(buyer, [(sku, 1)]))
        #expect(placed.status == 201, "\(placed.text)")
        let order = try placed.decode(OrderResponse.self)
        #expect(order.deliveryFeeCents == 800 && order.totalCents == 6_800)
        let free = try api.orderPlace(buyer, key: "k2", api.orderBuyNowBody(buyer, [(sku, 2)])).decode(OrderResponse.self)
        #expect(free.deliveryFeeCents == 0 && free.totalCents == 12_000)

        // only 深圳's 南山区 now: the buyer in 杭州 is outside
        _ = try putZones(api, ["zones": [["name": "南山", "region_codes": ["440305"], "fee_cents": 1_500, "same_day": true]]], token: owner)
        let stock = try api.orderStock(sku), orders = try api.orderCount()
        let refused = try api.send("POST", "/api/v1/orders", json: api.orderBuyNowBody(buyer, [(sku, 1)]), token: buyer.token,
                                   headers: [("Idempotency-Key", "k3"), ("Accept-Language", "en")])
        expectError(refused, 422, "delivery_unavailable")
        #expect(refused.error?.field == "address_id")
        #expect(refused.error?.message == "This address is outside the shop's delivery area; choose another address.")
        let chinese = try api.orderPlace(buyer, key: "k4", api.orderBuyNowBody(buyer, [(sku, 1)]))
        #expect(chinese.error?.message == "这个地址不在本店的配送范围内，请换一个收货地址。", "\(chinese.text)")
        #expect(try api.orderStock(sku) == stock && api.orderCount() == orders)
        expectError(try api.orderGet("/api/v1/delivery/quote", query: ["address_id": "\(buyer.addressID)"], token: buyer.token),
                    422, "delivery_unavailable")

        // no zones again: served free
        #expect(try putZones(api, ["zones": [Any]()], token: owner).status == 200)
        let again = try api.orderPlace(buyer, key: "k5", api.orderBuyNowBody(buyer, [(sku, 1)])).decode(OrderResponse.self)
        #expect(again.deliveryFeeCents == 0 && again.totalCents == 6_000)
    }
}
