import Foundation
import HTTP
import SQL
import SQLite
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// A signed-in buyer over the API: bearer token, user id and one address id.
struct OrderAPIBuyer {
    let token: String
    let userID: Int64
    let addressID: Int64
}

extension TestAPI {
    /// Imports `(sku code, price, stock)` rows (one product each) and answers the SKU ids by code.
    @discardableResult
    func orderSeed(_ skus: [(code: String, price: String, stock: Int)]) throws -> [String: Int64] {
        let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,"
            + "cover_url,image_urls,attributes,status"
        let lines = skus.map { sku in
            ["P-\(sku.code)", sku.code, "规格\(sku.code)", "花束\(sku.code)", "", "花束/玫瑰", sku.price, "", String(sku.stock), "",
             "https://img.floral.example/\(sku.code).jpg", "", "", "on_sale"].joined(separator: ",")
        }
        let outcome = try shop.catalogImporter.importData(Array(([header] + lines).joined(separator: "\n").utf8) + [10],
                                                          format: .csv, options: .init())
        guard outcome.issues.isEmpty else { throw FixtureError("seed rejected: \(outcome.issues)") }
        return try shop.pool.read { db in
            var ids: [String: Int64] = [:]
            for row in try db.query("SELECT id, code FROM skus") { ids[try row.string("code")] = try row.int64("id") }
            return ids
        }
    }

    /// Registers `phone` and adds one address over the API.
    func orderBuyer(_ phone: String) throws -> OrderAPIBuyer {
        let session = try register(phone).decode(SessionResponse.self)
        let address = try send("POST", "/api/v1/addresses", json: [
            "recipient": "王小花", "phone": "13800138000", "province": "浙江省", "city": "杭州市", "district": "西湖区",
            "detail": "人民路1号", "postal_code": "310000",
        ], token: session.token)
        guard address.status == 201 else { throw FixtureError("address answered \(address.status) \(address.text)") }
        let addressID = try address.decode(AddressResponse.self).own.id
        return OrderAPIBuyer(token: session.token, userID: session.user.id.rawValue, addressID: addressID.rawValue)
    }

    /// `POST /orders` with an `Idempotency-Key` (none when nil).
    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
    func orderPlace(_ buyer: OrderAPIBuyer, key: String?, _ body: [String: Any]) throws -> TestResponse {
        try send("POST", "/api/v1/orders", json: body, token: buyer.token, headers: key.map { [("Idempotency-Key", $0)] } ?? [])
    }

    /// "Buy now" body for `(sku id, quantity)` lines.
    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
    func orderBuyNowBody(_ buyer: OrderAPIBuyer, _ items: [(Int64, Int)]) -> [String: Any] {
        ["address_id": buyer.addressID, "items": items.map { ["sku_id": $0.0, "quantity": $0.1] }]
    }

    /// A GET with query arguments.
    func orderGet(_ path: String, query: [String: String] = [:], token: String) throws -> TestResponse {
        var headers = Headers()
        headers.set("Authorization", "Bearer \(token)")
        return try send(Request(method: "GET", path: path, query: query, headers: headers, remoteAddress: "10.0.0.1"))
    }

    func orderStock(_ sku: Int64) throws -> Int64 {
        try shop.pool.read { db in try db.scalarInt("SELECT stock FROM skus WHERE id = \(sku)") } ?? -1
    }

    func orderCount() throws -> Int64 {
        try shop.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM orders") } ?? -1
    }
}

extension TestResponse {
    /// The order this answer carries, nil for any other answer (an error).
    var order: OrderResponse? { try? decode(OrderResponse.self) }
    var orderID: Int64? { order?.id.rawValue }
    var orderNumber: String? { order?.number }
}

@Suite("Orders API")
struct OrderAPITests {
    @Test func aReplayedCheckoutAnswers200WithTheSameOrderAndTakesStockOnce() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        let body = app.orderBuyNowBody(buyer, [(sku, 2)])

        let first = try app.orderPlace(buyer, key: "checkout-1", body)
        let replay = try app.orderPlace(buyer, key: "checkout-1", body)

        #expect(first.status == 201, "\(first.text)")
        #expect(replay.status == 200, "\(replay.text)")
        #expect(first.orderNumber != nil)
        #expect(replay.orderNumber == first.orderNumber)
        #expect(replay.orderID == first.orderID)
        #expect(try app.orderStock(sku) == 8)
        #expect(try app.orderCount() == 1)
    }

    @Test func theSameKeyWithAnotherBodyIsA409() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        #expect(try app.orderPlace(buyer, key: "checkout-1", app.orderBuyNowBody(buyer, [(sku, 2)])).status == 201)

        let reused = try app.orderPlace(buyer, key: "checkout-1", app.orderBuyNowBody(buyer, [(sku, 3)]))

        expectError(reused, 409, "idempotency_key_reused")
        #expect(try app.orderStock(sku) == 8)
        #expect(try app.orderCount() == 1)
    }

    @Test func aMissingEmptyOrOverlongIdempotencyKeyIsA400() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        let body = app.orderBuyNowBody(buyer, [(sku, 1)])

        for key in [nil, "", String(repeating: "x", count: 65)] as [String?] {
            expectError(try app.orderPlace(buyer, key: key, body), 400, "idempotency_key_required")
        }
        #expect(try app.orderStock(sku) == 10)
        #expect(try app.orderCount() == 0)
        #expect(try app.orderPlace(buyer, key: String(repeating: "x", count: 64), body).status == 201)
    }

    @Test func twoUsersMayUseTheSameKey() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let alice = try app.orderBuyer("13900000001")
        let bob = try app.orderBuyer("13900000002")

        let hers = try app.orderPlace(alice, key: "same", app.orderBuyNowBody(alice, [(sku, 1)]))
        let his = try app.orderPlace(bob, key: "same", app.orderBuyNowBody(bob, [(sku, 2)]))

        #expect(hers.status == 201)
        #expect(his.status == 201, "\(his.text)")
        #expect(his.orderNumber != hers.orderNumber)
        #expect(try app.orderStock(sku) == 7)
    }

    @Test func outOfStockIsA409NamingTheSKUAndChangesNothing() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "10.00", 10), ("B", "10.00", 1)])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        let buyer = try app.orderBuyer("13900000001")

        let refused = try app.orderPlace(buyer, key: "k1", app.orderBuyNowBody(buyer, [(a, 2), (b, 2)]))

        expectError(refused, 409, "out_of_stock")
        // Named as the buyer sees it (product title and SKU name), never by its id.
        #expect(refused.error?.message == "花束B 规格B 只剩 1 件", "\(refused.text)")
        #expect(refused.error?.field == "sku_id")
        #expect(try app.orderStock(a) == 10)
        #expect(try app.orderStock(b) == 1)
        #expect(try app.orderCount() == 0)
    }

    @Test func badLinesAreRefusedWithTheDocumentedCodes() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")

        expectError(try app.orderPlace(buyer, key: "k1", app.orderBuyNowBody(buyer, [(sku, 0)])), 400, "validation_failed")
        expectError(try app.orderPlace(buyer, key: "k2", app.orderBuyNowBody(buyer, [(sku, 100)])), 400, "validation_failed")
        let wrongType = try app.orderPlace(buyer, key: "k3", ["address_id": buyer.addressID, "items": [["sku_id": sku, "quantity": "2"]]])
        #expect(wrongType.status == 400, "\(wrongType.text)")
        #expect(["invalid_request", "validation_failed"].contains(wrongType.errorCode ?? ""), "\(wrongType.text)")
        expectError(try app.orderPlace(buyer, key: "k4", app.orderBuyNowBody(buyer, [(987_654, 1)])), 404, "not_found")
        expectError(try app.orderPlace(buyer, key: "k5", ["address_id": 987_654, "items": [["sku_id": sku, "quantity": 1]]]),
                    404, "not_found")
        #expect(try app.orderStock(sku) == 10)
        #expect(try app.orderCount() == 0)
    }

    @Test func buyNowPastTheCartCapIsA422WithTheCartsMessage() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "1.00", 500), ("B", "1.00", 500)])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        let buyer = try app.orderBuyer("13900000001")

        let refused = try app.orderPlace(buyer, key: "big", app.orderBuyNowBody(buyer, [(a, 99), (b, 99)]))

        expectError(refused, 422, "cart_limit_exceeded")
        #expect(refused.error?.message == "亲，企业采购请联系我们客服")
        #expect(try app.orderStock(a) == 500)
        #expect(try app.orderCount() == 0)
    }

    @Test func aSixthUnpaidOrderIsA422ButAReplayStillAnswersItsOrder() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 100)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        let body = app.orderBuyNowBody(buyer, [(sku, 1)])
        for index in 1...5 { #expect(try app.orderPlace(buyer, key: "k\(index)", body).status == 201) }

        expectError(try app.orderPlace(buyer, key: "k6", body), 422, "too_many_unpaid_orders")
        let replay = try app.orderPlace(buyer, key: "k3", body)
        #expect(replay.status == 200, "\(replay.text)")
        #expect(try app.orderStock(sku) == 95)
        #expect(try app.orderCount() == 5)
    }

    @Test func cartCheckoutRemovesTheOrderedLinesAndAnEmptySelectionIsA422() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "10.00", 10), ("B", "20.00", 10)])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        let buyer = try app.orderBuyer("13900000001")
        #expect(try app.send("POST", "/api/v1/cart/items", json: ["sku_id": a, "quantity": 2], token: buyer.token).status == 201)
        let cart = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": b, "quantity": 1], token: buyer.token)
        let lines = try cart.decode(CartResponse.self).items
        let lineB = try #require(lines.first { $0.skuID.rawValue == b }?.id)
        #expect(try app.send("PATCH", "/api/v1/cart/items/\(lineB)", json: ["selected": false], token: buyer.token).status == 200)

        let placed = try app.orderPlace(buyer, key: "cart-1", ["address_id": buyer.addressID])

        #expect(placed.status == 201, "\(placed.text)")
        let order = try placed.decode(OrderResponse.self)
        #expect(order.items.map(\.skuID.rawValue) == [a])
        #expect(order.totalCents == 2_000)
        let left = try app.orderGet("/api/v1/cart", token: buyer.token).decode(CartResponse.self).items
        #expect(left.map(\.id) == [lineB])

        expectError(try app.orderPlace(buyer, key: "cart-2", ["address_id": buyer.addressID]), 422, "cart_empty")
        #expect(try app.orderStock(b) == 10)
    }

    @Test func injectedPricesStatusOwnerAndTotalsChangeNothing() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "88.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        let other = try app.orderBuyer("13900000002")

        let placed = try app.orderPlace(buyer, key: "k1", [
            "address_id": buyer.addressID,
            "items": [["sku_id": sku, "quantity": 2, "price_cents": 1, "title": "假的"]],
            "price_cents": 1, "status": "paid", "user_id": other.userID, "total_cents": 2, "paid_at": "2026-11-30T08:00:00Z",
            "number": "20261130000000001", "id": 1,
        ])

        #expect(placed.status == 201, "\(placed.text)")
        let order = try placed.decode(OrderResponse.self)
        #expect(order.status == .pendingPayment)
        #expect(order.totalCents == 17_600)
        let item = try #require(order.items.first)
        #expect(item.priceCents == 8_800)
        #expect(item.title == "花束A")
        #expect(order.paidAt == nil)
        #expect(placed.orderNumber != "20261130000000001")
        let id = try #require(placed.orderID)
        #expect(try app.orderGet("/api/v1/orders/\(id)", token: buyer.token).status == 200)
        #expect(try app.orderGet("/api/v1/orders/\(id)", token: other.token).status == 404)
        let owner = try app.shop.pool.read { db in try db.scalarInt("SELECT user_id FROM orders WHERE id = \(id)") }
        #expect(owner == buyer.userID)
        #expect(try app.shop.pool.read { db in try db.scalarInt("SELECT sales FROM products") } == 0)
    }

    @Test func cancelTwiceAndConfirmingAPendingOrderAre409s() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        let id = try #require(try app.orderPlace(buyer, key: "k1", app.orderBuyNowBody(buyer, [(sku, 3)])).orderID)

        expectError(try app.send("POST", "/api/v1/orders/\(id)/confirm-receipt", token: buyer.token), 409, "order_state_conflict")
        let cancelled = try app.send("POST", "/api/v1/orders/\(id)/cancel", token: buyer.token)
        #expect(cancelled.status == 200, "\(cancelled.text)")
        let order = try cancelled.decode(OrderResponse.self)
        #expect(order.status == .cancelled)
        #expect(order.cancelledAt == rfc3339("2026-11-30T08:00:00Z"))
        #expect(try app.orderStock(sku) == 10)

        expectError(try app.send("POST", "/api/v1/orders/\(id)/cancel", token: buyer.token), 409, "order_state_conflict")
        expectError(try app.send("POST", "/api/v1/orders/\(id)/confirm-receipt", token: buyer.token), 409, "order_state_conflict")
        #expect(try app.orderStock(sku) == 10)
    }

    @Test func anotherUsersOrderIsA404Everywhere() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let alice = try app.orderBuyer("13900000001")
        let bob = try app.orderBuyer("13900000002")
        let id = try #require(try app.orderPlace(alice, key: "k1", app.orderBuyNowBody(alice, [(sku, 2)])).orderID)

        expectError(try app.orderGet("/api/v1/orders/\(id)", token: bob.token), 404, "not_found")
        expectError(try app.send("POST", "/api/v1/orders/\(id)/cancel", token: bob.token), 404, "not_found")
        expectError(try app.send("POST", "/api/v1/orders/\(id)/confirm-receipt", token: bob.token), 404, "not_found")
        expectError(try app.orderGet("/api/v1/orders/\(id + 1_000)", token: alice.token), 404, "not_found")
        expectError(try app.orderGet("/api/v1/orders/abc", token: alice.token), 404, "not_found")

        #expect(try app.orderGet("/api/v1/orders/\(id)", token: alice.token).order?.status == .pendingPayment)
        #expect(try app.orderStock(sku) == 8)
        let bobs = try app.orderGet("/api/v1/orders", token: bob.token)
        let none = try bobs.decode(PageResponse<OrderResponse>.self)
        #expect(none.items.isEmpty)
        #expect(none.total == 0)
    }

    @Test func ordersNeedASignedInUser() throws {
        let app = try TestAPI()
        expectError(try app.send("GET", "/api/v1/orders"), 401, "unauthorized")
        expectError(try app.send("POST", "/api/v1/orders", json: ["address_id": 1], headers: [("Idempotency-Key", "k")]),
                    401, "unauthorized")
        expectError(try app.send("POST", "/api/v1/orders/1/cancel"), 401, "unauthorized")
    }

    @Test func theListIsOnesOwnNewestFirstFilteredAndPaged() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 100)])["A"])
        let alice = try app.orderBuyer("13900000001")
        let bob = try app.orderBuyer("13900000002")
        var numbers: [String] = []
        for index in 0..<5 {
            numbers.append(try #require(try app.orderPlace(alice, key: "a\(index)", app.orderBuyNowBody(alice, [(sku, 1)])).orderNumber))
            #expect(try app.orderPlace(bob, key: "b\(index)", app.orderBuyNowBody(bob, [(sku, 1)])).status == 201)
            app.clock.advance(by: 5)
        }
        let second = try app.orderGet("/api/v1/orders", token: alice.token).decode(PageResponse<OrderResponse>.self).items
            .first { $0.number == numbers[1] }?.id
        #expect(try app.send("POST", "/api/v1/orders/\(try #require(second))/cancel", token: alice.token).status == 200)

        let all = try app.orderGet("/api/v1/orders", token: alice.token)
        #expect(all.status == 200)
        #expect(all.keys == ["items", "page", "per_page", "total"])
        let allOrders = try all.decode(PageResponse<OrderResponse>.self)
        #expect(allOrders.items.map(\.number) == numbers.reversed())
        #expect(allOrders.page == 1)
        #expect(allOrders.perPage == 20)
        #expect(allOrders.total == 5)

        let pending = try app.orderGet("/api/v1/orders", query: ["status": "pending_payment"], token: alice.token)
            .decode(PageResponse<OrderResponse>.self)
        #expect(pending.items.map(\.number) == [numbers[4], numbers[3], numbers[2], numbers[0]])
        #expect(pending.total == 4)
        let cancelled = try app.orderGet("/api/v1/orders", query: ["status": "cancelled"], token: alice.token)
            .decode(PageResponse<OrderResponse>.self)
        #expect(cancelled.items.map(\.number) == [numbers[1]])

        let page = try app.orderGet("/api/v1/orders", query: ["page": "2", "per_page": "2"], token: alice.token)
            .decode(PageResponse<OrderResponse>.self)
        #expect(page.items.map(\.number) == [numbers[2], numbers[1]])
        #expect(page.page == 2)
        #expect(page.perPage == 2)
        #expect(page.total == 5)

        expectError(try app.orderGet("/api/v1/orders", query: ["status": "lost"], token: alice.token), 400, "validation_failed")
        expectError(try app.orderGet("/api/v1/orders", query: ["per_page": "0"], token: alice.token), 400, "validation_failed")
        expectError(try app.orderGet("/api/v1/orders", query: ["per_page": "101"], token: alice.token), 400, "validation_failed")
    }

    /// A storefront tab may gather several statuses: 退款·售后 is `refunding` and `refunded`.
    @Test func theListFiltersByAnyOfACommaSeparatedListOfStatuses() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 100)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        var orders: [OrderResponse] = []
        for index in 0..<3 {
            orders.append(try app.orderPlace(buyer, key: "k\(index)", app.orderBuyNowBody(buyer, [(sku, 1)])).decode(OrderResponse.self))
        }
        #expect(try app.orderPaid(orders[0].id.rawValue))
        let refunding = try app.send("POST", "/api/v1/orders/\(orders[0].id)/cancel", token: buyer.token).decode(OrderResponse.self)
        #expect(refunding.status == .refunding)
        #expect(try app.send("POST", "/api/v1/orders/\(orders[1].id)/cancel", token: buyer.token).status == 200)

        func numbers(_ status: String) throws -> [String] {
            try app.orderGet("/api/v1/orders", query: ["status": status], token: buyer.token)
                .decode(PageResponse<OrderResponse>.self).items.map(\.number)
        }
        #expect(try numbers("refunding,refunded") == [orders[0].number])
        #expect(try numbers("pending_payment,cancelled") == [orders[2].number, orders[1].number])
        #expect(try numbers("cancelled,cancelled") == [orders[1].number])
        #expect(try numbers("refunded") == [])
        for bad in ["refunding,lost", "refunding,", ",", "refunding refunded"] {
            expectError(try app.orderGet("/api/v1/orders", query: ["status": bad], token: buyer.token), 400, "validation_failed")
        }
    }

    @Test func theOrderJSONHasExactlyTheDocumentedKeysWithNullsPresent() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "12.50", 10), ("B", "3.00", 10)])
        let a = try #require(skus["A"]), b = try #require(skus["B"])
        let buyer = try app.orderBuyer("13900000001")
        let placed = try app.orderPlace(buyer, key: "k1", ["address_id": buyer.addressID, "note": "生日快乐",
                                                           "items": [["sku_id": a, "quantity": 2], ["sku_id": b, "quantity": 1]]])
        #expect(placed.status == 201, "\(placed.text)")
        let id = try #require(placed.orderID)

        let shown = try app.orderGet("/api/v1/orders/\(id)", token: buyer.token)
        #expect(shown.keys == ["id", "number", "status", "items", "total_cents", "delivery_fee_cents", "address", "note", "created_at",
                                    "pay_deadline", "paid_at", "shipped_at", "delivered_at", "delivery_photo_url", "completed_at",
                                    "cancelled_at", "shipment", "refund", "discount_cents", "coupon",
                                    "delivery_date", "delivery_slot", "card_message", "card_signature",
                                    "tracking_url", "anonymous_sender", "notify_recipient",
                                    "refunded_cents", "after_sale", "redelivery_of"])
        // Decoding needs every `ExplicitNull` key present, so with the key set above the nils below are explicit nulls.
        let order = try shown.decode(OrderResponse.self)
        #expect(order.items.count == 2)
        #expect(shown.keysOfEach("items") == Array(repeating: ["sku_id", "title", "sku_name", "price_cents", "quantity"], count: 2))
        #expect(order.items.map(\.priceCents) == [1_250, 300])
        #expect(order.items.first?.skuName == "规格A")
        #expect(shown.keys(of: "address") == ["recipient", "phone", "province", "city", "district", "detail", "postal_code"])
        #expect(order.address.recipient == "王小花")
        #expect(order.address.postalCode == "310000")
        #expect(order.status == .pendingPayment)
        #expect(order.totalCents == 2_800)
        #expect(order.note == "生日快乐")
        #expect(order.createdAt == rfc3339("2026-11-30T08:00:00Z"))
        #expect(order.payDeadline == rfc3339("2026-11-30T08:30:00Z"))
        #expect(order.paidAt == nil && order.shippedAt == nil && order.completedAt == nil && order.cancelledAt == nil)
        #expect(order.shipment == nil && order.refund == nil)
        for key in ["paid_at", "shipped_at", "delivered_at", "delivery_photo_url", "completed_at", "cancelled_at", "shipment", "refund"] {
            #expect(shown.text.contains("\"\(key)\":null"), "\(key) should be an explicit null")
        }

        let number = order.number
        app.clock.advance(by: 60)
        #expect(try app.orderPaid(id))
        _ = try app.shop.orders.ship(number: number, carrier: "顺丰", trackingNumber: "SF100", by: .commandLine(user: "test"))
        let shippedAnswer = try app.orderGet("/api/v1/orders/\(id)", token: buyer.token)
        let shipped = try shippedAnswer.decode(OrderResponse.self)
        #expect(shipped.status == .shipped)
        #expect(shippedAnswer.keys(of: "shipment") == ["carrier", "tracking_number"])
        #expect(shipped.shipment?.trackingNumber == "SF100")
        #expect(shipped.paidAt == rfc3339("2026-11-30T08:01:00Z"))

        let confirmed = try app.send("POST", "/api/v1/orders/\(id)/confirm-receipt", token: buyer.token)
        #expect(confirmed.status == 200)
        #expect(try confirmed.decode(OrderResponse.self).status == .completed)
    }

    @Test func consecutiveOrderNumbersAreUniqueAndNotACounter() throws {
        let app = try TestAPI { $0.orders.maxUnpaidPerUser = 6 }
        let sku = try #require(try app.orderSeed([("A", "10.00", 100)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        var numbers: [String] = []
        for index in 0..<6 {
            numbers.append(try #require(try app.orderPlace(buyer, key: "k\(index)", app.orderBuyNowBody(buyer, [(sku, 1)])).orderNumber))
        }
        #expect(Set(numbers).count == numbers.count)
        for (previous, next) in zip(numbers, numbers.dropFirst()) {
            #expect(previous.dropLast() != next.dropLast(), "\(previous) and \(next) differ only in the last digit")
        }
    }
}

extension TestAPI {
    /// Marks an order paid the way the payment receiver does.
    func orderPaid(_ id: Int64) throws -> Bool {
        let now = clock.clock.unixNow
        return try shop.pool.write { db in try OrderLifecycle().markPaid(OrderID(id), at: now, db) }
    }
}
