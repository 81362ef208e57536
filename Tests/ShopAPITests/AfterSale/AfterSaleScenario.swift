import Foundation
import HTTP
import Images
@testable import ShopAPI
import ShopTestSupport
import Testing
@testable import ShopCore

/// A shop with WeChat Pay on a fake gateway that holds refunds until told, a buyer whose order of
/// two roses (64.50 each) is paid through it, and the desk's staff to ship, deliver and decide.
final class AfterSaleScenario: @unchecked Sendable {
    let gateway: FakeWechatPayGateway
    let s: PaymentAPIScenario
    var app: TestAPI { s.app }
    var buyer: String { s.token }
    /// The florist who ships and delivers.
    let florist: String
    private var pictures = 0

    init(_ configure: @escaping (inout Config) -> Void = { _ in }) throws {
        let gateway = try FakeWechatPayGateway()
        gateway.holdRefunds(true)
        self.gateway = gateway
        s = try PaymentAPIScenario { config in
            PaymentKeys.configure(&config, wechatGateway: gateway, alipayGateway: nil)
            config.media.maxUploadsPerMinute = 100
            configure(&config)
        }
        florist = try s.app.staffToken(.florist)
    }

    /// Two roses, paid through WeChat Pay's notification.
    func paidOrder(quantity: Int = 2) throws -> Order {
        let order = try s.placeOrder(quantity: quantity)
        #expect(try app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "wechatpay"], token: buyer).status == 201)
        #expect(try s.webhook("wechatpay", body: try gateway.pay(order.number), contentType: "text/xml").status == 200)
        return try s.shop.orders.order(order.id, for: s.buyer)
    }

    /// Paid, shipped by the shop's courier, and (unless `delivered` is false) delivered an hour later.
    func shippedOrder(delivered: Bool = true, quantity: Int = 2) throws -> Order {
        let order = try paidOrder(quantity: quantity)
        #expect(try app.send("POST", "/api/v1/admin/orders/\(order.number)/ship", token: florist).status == 200)
        if delivered {
            app.clock.advance(by: 3_600)
            #expect(try app.send("POST", "/api/v1/admin/orders/\(order.number)/deliver", json: [String: Any](), token: florist).status == 200)
        }
        return try s.shop.orders.order(order.id, for: s.buyer)
    }

    /// A photo the buyer uploads through `POST /media` (each one a new picture): its display URL.
    func photo(token: String? = nil) throws -> String {
        pictures += 1
        let bytes = try PictureSynthesizer.picture(width: 320 + pictures, height: 240, format: .jpeg)
        var headers = Headers()
        headers.set("Content-Type", "image/jpeg")
        headers.set("Authorization", "Bearer \(token ?? buyer)")
        let response = try app.send(Request(method: "POST", path: "/api/v1/media", headers: headers, body: bytes, remoteAddress: "10.0.0.1"))
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(UploadController.UploadResponse.self).url
    }

    /// `POST /orders/{id}/after-sales` as `token` (the buyer unless given); the body untyped on
    /// purpose (tests send ill-typed and extra fields).
    func ask(_ order: Order, _ body: [String: Any], token: String? = nil) throws -> TestResponse {
        try app.send("POST", "/api/v1/orders/\(order.id.rawValue)/after-sales", json: body, token: token ?? buyer)
    }

    /// A request that must be accepted: the `AfterSale` answered.
    func asked(_ order: Order, _ body: [String: Any]) throws -> AfterSaleResponse {
        let response = try ask(order, body)
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(AfterSaleResponse.self)
    }

    func mine(_ order: Order) throws -> OrderResponse {
        try app.send("GET", "/api/v1/orders/\(order.id.rawValue)", token: buyer).decode(OrderResponse.self)
    }

    func myAfterSales(_ order: Order) throws -> [AfterSaleResponse] {
        try app.send("GET", "/api/v1/orders/\(order.id.rawValue)/after-sales", token: buyer).decode(ItemsResponse<AfterSaleResponse>.self).items
    }

    func approve(_ id: AfterSaleID, _ body: [String: Any] = [:], as token: String) throws -> TestResponse {
        try app.send("POST", "/api/v1/admin/after-sales/\(id.rawValue)/approve", json: body, token: token)
    }

    func reject(_ id: AfterSaleID, _ body: [String: Any], as token: String) throws -> TestResponse {
        try app.send("POST", "/api/v1/admin/after-sales/\(id.rawValue)/reject", json: body, token: token)
    }

    func detail(_ number: String, as token: String) throws -> AdminOrderDetailResponse {
        try app.send("GET", "/api/v1/admin/orders/\(number)", token: token).decode(AdminOrderDetailResponse.self)
    }

    /// Waits (at most 10 s) for the payments bulkhead to bring `count` refunds to WeChat Pay.
    func waitForRefunds(_ count: Int) {
        let deadline = Date().addingTimeInterval(10)
        while gateway.refunds.count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// The audit log's entries about one request, oldest first.
    func audit(_ id: AfterSaleID) throws -> [AuditEntry] {
        try app.shop.audit.entries(AuditFilter(target: "after_sale:\(id.rawValue)"), page: try PageRequest(perPage: 100)).items.reversed()
    }

    /// The rose SKU's stock.
    func stock() throws -> Int64 {
        try app.shop.pool.read { db in try db.scalarInt("SELECT stock FROM skus WHERE id = \(s.sku)") ?? -1 }
    }

    /// How many after-sale rows the shop holds.
    func rows() throws -> Int64 {
        try app.shop.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM after_sales") ?? -1 }
    }
}
