import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// Delivery days over HTTP: the fields of checkout and the `Order`, 422 `delivery_unavailable`, and
/// `GET /delivery/dates`. The test clock starts at 2026-11-30 16:00 in Shanghai (past the cutoff).
@Suite("API: delivery days")
struct DeliveryAPITests {
    @Test func theOrderEchoesTheDeliveryDaySlotAndCard() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "10.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        var body = api.orderBuyNowBody(buyer, [(sku, 1)])
        body["delivery_date"] = "2026-12-02"
        body["delivery_slot"] = "afternoon"
        body["card_message"] = "生日快乐"
        body["card_signature"] = "小明"
        let placed = try api.orderPlace(buyer, key: "k1", body)
        #expect(placed.status == 201, "\(placed.text)")
        let order = try placed.decode(OrderResponse.self)
        #expect(order.deliveryDate == "2026-12-02")
        #expect(order.deliverySlot == .afternoon)
        #expect(order.cardMessage == "生日快乐")
        #expect(order.cardSignature == "小明")
        let shown = try api.orderGet("/api/v1/orders/\(order.id)", token: buyer.token).decode(OrderResponse.self)
        #expect(shown.deliveryDate == "2026-12-02" && shown.cardSignature == "小明")
    }

    @Test func anOrderWithoutDeliveryFieldsStatesTheEarliestDayAndNullsTheRest() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "10.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        let placed = try api.orderPlace(buyer, key: "k1", api.orderBuyNowBody(buyer, [(sku, 1)]))
        #expect(placed.status == 201, "\(placed.text)")
        // Decoding needs each `ExplicitNull` key there, so these nils are explicit nulls, not absent keys.
        let order = try placed.decode(OrderResponse.self)
        #expect(order.deliveryDate == "2026-12-01")
        #expect(order.deliverySlot == nil && order.cardMessage == nil && order.cardSignature == nil, "\(placed.text)")
        for key in ["delivery_slot", "card_message", "card_signature"] {
            #expect(placed.text.contains("\"\(key)\":null"), "\(key) in \(placed.text)")
        }
    }

    @Test func aDayTheShopCannotDeliverOnIsA422NamingTheEarliestDay() throws {
        let api = try TestAPI { $0.orders.closedDates = [CalendarDay("2026-12-01")!] }
        let sku = try #require(try api.orderSeed([("A", "10.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        var body = api.orderBuyNowBody(buyer, [(sku, 1)])
        body["delivery_date"] = "2026-12-01"
        let refused = try api.orderPlace(buyer, key: "k1", body)
        expectError(refused, 422, "delivery_unavailable")
        #expect(refused.error?.field == "delivery_date")
        #expect(refused.error?.message.contains("2026-12-02") == true, "\(refused.text)")
        let english = try api.send("POST", "/api/v1/orders", json: body, token: buyer.token,
                                   headers: [("Idempotency-Key", "k2"), ("Accept-Language", "en")])
        #expect(english.error?.message.contains("earliest possible day is 2026-12-02") == true, "\(english.text)")
        #expect(try api.orderCount() == 0 && api.orderStock(sku) == 5)
    }

    @Test func malformedDeliveryFieldsAre400sNamingTheField() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "10.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        for (index, (key, value)) in [("delivery_date", "2026-12-32" as Any), ("delivery_date", "tomorrow"), ("delivery_date", 20261202),
                                      ("delivery_slot", "night"), ("card_message", String(repeating: "爱", count: 201)),
                                      ("card_signature", String(repeating: "a", count: 31))].enumerated() {
            var body = api.orderBuyNowBody(buyer, [(sku, 1)])
            body[key] = value
            let refused = try api.orderPlace(buyer, key: "bad-\(index)", body)
            #expect(refused.status == 400, "\(key)=\(value): \(refused.text)")
            if value is String { #expect(refused.error?.field == key, "\(refused.text)") }
        }
        #expect(try api.orderCount() == 0)
    }

    @Test func aCardOrNoteWithACarriageReturnOrAnotherControlCharacterIsA400AndOnlyTheCardKeepsALineFeed() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "10.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        let refusals: [(String, String)] = [("card_message", "生日快乐\r爱你"), ("card_message", "生日\r\n快乐"), ("card_message", "a\tb"),
                                            ("card_message", "\u{1B}[2J爱你"), ("card_message", "爱\u{85}你"), ("card_signature", "小\r明"),
                                            ("note", "门口\r放下"), ("note", "\u{1B}]0;x\u{7}放门口")]
        for (index, (key, value)) in refusals.enumerated() {
            var body = api.orderBuyNowBody(buyer, [(sku, 1)])
            body[key] = value
            let refused = try api.orderPlace(buyer, key: "bad-\(index)", body)
            expectError(refused, 400, "validation_failed")
            #expect(refused.error?.field == key, "\(key)=\(value.debugDescription): \(refused.text)")
        }
        #expect(try api.orderCount() == 0)
        var body = api.orderBuyNowBody(buyer, [(sku, 1)])
        body["card_message"] = "生日快乐\n爱你"
        body["note"] = "放门口\n谢谢"
        let placed = try api.orderPlace(buyer, key: "good", body)
        #expect(placed.status == 201, "\(placed.text)")
        let order = try placed.decode(OrderResponse.self)
        #expect(order.cardMessage == "生日快乐\n爱你")
        #expect(order.note == "放门口\n谢谢")
    }

    @Test func deliveryDatesListTheDaysAndSlotsForTheseSKUs() throws {
        let api = try TestAPI()
        try api.orderSeed([("A", "10.00", 5)])
        let pot = try importNextDayProduct(api)
        api.clock.advance(by: 18 * 3_600)  // 1 December, 10:00 in Shanghai
        let sameDay = try api.send("GET", "/api/v1/delivery/dates")
        #expect(sameDay.status == 200, "\(sameDay.text)")
        let items = try sameDay.decode(ItemsResponse<DeliveryController.DayBody>.self).items
        #expect(items.count == 31)
        #expect(items.first?.date == "2026-12-01")
        #expect(items.first?.slots == [.afternoon, .evening])
        #expect(items.last?.date == "2026-12-31")
        let nextDay = try api.send("GET", "/api/v1/delivery/dates", query: ["sku_ids": "\(pot)"])
        let first = try #require(try nextDay.decode(ItemsResponse<DeliveryController.DayBody>.self).items.first)
        #expect(first.date == "2026-12-02" && first.slots == [.morning, .afternoon, .evening])
    }

    @Test func deliveryDatesRefuseBadOrUnknownSKUs() throws {
        let api = try TestAPI()
        expectError(try api.send("GET", "/api/v1/delivery/dates", query: ["sku_ids": "1,x"]), 400, "validation_failed")
        expectError(try api.send("GET", "/api/v1/delivery/dates", query: ["sku_ids": (1...51).map(String.init).joined(separator: ",")]),
                    400, "validation_failed")
        expectError(try api.send("GET", "/api/v1/delivery/dates", query: ["sku_ids": "999999"]), 404, "not_found")
    }

    /// Imports one `next_day` product and answers its SKU id.
    func importNextDayProduct(_ api: TestAPI) throws -> Int64 {
        let csv = "product_code,sku_code,title,category,price,stock,delivery\nPOT,POT-1,绿萝盆栽,绿植,39.00,5,next_day\n"
        let outcome = try api.shop.catalogImporter.importData(Array(csv.utf8), format: .csv, options: .init())
        guard outcome.issues.isEmpty else { throw FixtureError("seed rejected: \(outcome.issues)") }
        return try #require(try api.shop.pool.read { db in try db.scalarInt("SELECT id FROM skus WHERE code = 'POT-1'") })
    }
}
