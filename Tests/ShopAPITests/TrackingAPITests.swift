import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Tracking page and checkout's recipient choices")
struct TrackingAPITests {
    static func app() throws -> TestAPI {
        try TestAPI { $0.app.publicURL = "https://shop.example.com/" }
    }

    /// Places a buy-now order with `extra` checkout fields; answers the order.
    static func place(_ app: TestAPI, _ extra: [String: Any] = [:]) throws -> (OrderAPIBuyer, OrderResponse) {
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        var body = app.orderBuyNowBody(buyer, [(sku, 1)])
        body["card_message"] = "生日快乐 <3"
        body.merge(extra) { $1 }
        let placed = try app.orderPlace(buyer, key: "track-1", body)
        #expect(placed.status == 201, "\(placed.text)")
        return (buyer, try placed.decode(OrderResponse.self))
    }

    @Test func anOrderCarriesItsTrackingLinkUnderThePublicURL() throws {
        let app = try Self.app()
        let (buyer, order) = try Self.place(app)
        let url = try #require(order.trackingURL)
        #expect(url.hasPrefix("https://shop.example.com/track/"))
        #expect(TrackingToken.isWellFormed(String(url.dropFirst("https://shop.example.com/track/".count))))
        #expect(order.anonymousSender == false && order.notifyRecipient == true)
        let shown = try app.orderGet("/api/v1/orders/\(order.id.rawValue)", token: buyer.token).decode(OrderResponse.self)
        #expect(shown.trackingURL == url)
    }

    @Test func thePageShowsTheOrderWithMaskedPhonesAndTheSender() throws {
        let app = try Self.app()
        let (_, order) = try Self.place(app)
        let path = String(try #require(order.trackingURL).dropFirst("https://shop.example.com".count))
        let page = try app.send("GET", path)
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        let csp = try #require(page.headers["Content-Security-Policy"])
        #expect(csp.contains("default-src 'none'") && !csp.contains("script-src"))
        #expect(!page.text.contains("<script"))
        #expect(page.text.contains("待付款"))
        #expect(page.text.contains("生日快乐 &lt;3"))
        #expect(page.text.contains("王小花 138****8000"))
        #expect(!page.text.contains("13800138000"))
        #expect(page.text.contains("139****0001"))
        #expect(!page.text.contains("13900000001"))
    }

    @Test func anAnonymousSenderIsHiddenFromThePage() throws {
        let app = try Self.app()
        let (_, order) = try Self.place(app, ["anonymous_sender": true, "notify_recipient": false])
        #expect(order.anonymousSender && !order.notifyRecipient)
        let path = String(try #require(order.trackingURL).dropFirst("https://shop.example.com".count))
        let page = try app.send("GET", path)
        #expect(page.status == 200)
        #expect(!page.text.contains("139****0001"))
        #expect(page.text.contains("一位不愿留名的朋友"))
    }

    @Test func aTokenOfTheWrongShapeOrUnknownIs404() throws {
        let app = try Self.app()
        _ = try Self.place(app)
        for path in ["/track/abc", "/track/" + String(repeating: "Z", count: 32), "/track/" + String(repeating: "0", count: 32)] {
            let page = try app.send("GET", path, headers: [("Accept", "text/html,application/xhtml+xml")])
            #expect(page.status == 404, "\(path)")
            #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
            let api = try app.send("GET", path)
            #expect(api.status == 404 && api.error?.code == "not_found", "\(path)")
        }
    }

    @Test func recipientChoicesOfTheWrongTypeAre400() throws {
        let app = try Self.app()
        let sku = try #require(try app.orderSeed([("A", "10.00", 10)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        var body = app.orderBuyNowBody(buyer, [(sku, 1)])
        body["anonymous_sender"] = "yes"
        let refused = try app.orderPlace(buyer, key: "bad-1", body)
        #expect(refused.status == 400)
        #expect(try app.orderCount() == 0)
    }
}
