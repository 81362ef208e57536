import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// Development-only routes (`/api/v1/dev/...`) answer only requests straight from this machine:
/// a loopback peer that no proxy forwarded. Anyone else, a same-host proxy's clients included,
/// gets the 404 of a path that does not exist, whatever the method and with or without a token.
@Suite("Development-only routes")
struct DevelopmentRoutesTests {
    /// A development shop with one unpaid order; answers the buyer and the simulate path.
    private func unpaidOrder(server: ServerSettings = ServerSettings()) throws -> (TestAPI, OrderAPIBuyer, String) {
        let api = try TestAPI(server: server)
        let sku = try #require(try api.orderSeed([("A", "10.00", 5)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        let placed = try api.orderPlace(buyer, key: "k1", api.orderBuyNowBody(buyer, [(sku, 1)]))
        let id = try #require(placed.orderID, "\(placed.text)")
        return (api, buyer, "/api/v1/dev/orders/\(id)/simulate-payment")
    }

    private func simulate(_ api: TestAPI, _ path: String, token: String?, from peer: String,
                          _ headers: [(String, String)] = [], method: String = "POST") throws -> TestResponse {
        try api.send(method, path, json: method == "POST" ? ["status": "succeeded"] : nil, token: token, headers: headers, from: peer)
    }

    @Test("Forwarded or remote requests get the 404 of an unknown path", arguments: [
        ("10.0.0.1", [] as [(String, String)]), ("203.0.113.9", []), ("192.168.1.20", []),
        ("127.0.0.1", [("X-Forwarded-For", "127.0.0.1")]), ("127.0.0.1", [("X-Forwarded-For", "203.0.113.9")]),
        ("127.0.0.1", [("X-Forwarded-Host", "localhost")]), ("127.0.0.1", [("X-Forwarded-Proto", "http")]),
        ("127.0.0.1", [("Forwarded", "for=127.0.0.1")]), ("::1", [("x-real-ip", "::1")]),
    ])
    func aRequestNotStraightFromLoopbackIsA404(_ peer: String, _ headers: [(String, String)]) throws {
        let (api, buyer, path) = try unpaidOrder()
        for token in [buyer.token, nil] {
            for method in ["POST", "GET", "OPTIONS"] {
                let refused = try simulate(api, path, token: token, from: peer, headers, method: method)
                expectError(refused, 404, "not_found")
                #expect(refused.headers["Allow"] == nil, "\(method) from \(peer) \(headers)")
            }
        }
        let order = try api.send("GET", path.replacingOccurrences(of: "/dev", with: "").replacingOccurrences(of: "/simulate-payment", with: ""),
                                 token: buyer.token)
        #expect(try order.decode(OrderResponse.self).status == .pendingPayment, "\(order.text)")
    }

    @Test("A loopback peer without forwarding fields reaches the route", arguments: ["127.0.0.1", "::1", "127.0.0.2", "::ffff:127.0.0.1"])
    func aDirectLoopbackRequestPays(_ peer: String) throws {
        let (api, buyer, path) = try unpaidOrder()
        #expect(try simulate(api, path, token: nil, from: peer).status == 401)
        #expect(try simulate(api, path, token: buyer.token, from: peer, method: "GET").status == 405)
        let paid = try simulate(api, path, token: buyer.token, from: peer)
        #expect(paid.status == 200, "\(paid.text)")
        #expect(try paid.decode(DevelopmentController.SimulateResponse.self).orderStatus == .paid)
    }

    @Test func trustingAProxyDoesNotLetItsClientsIn() throws {
        let (api, buyer, path) = try unpaidOrder(server: .with { $0.trustedProxies = "127.0.0.1" })
        let viaProxy = try simulate(api, path, token: buyer.token, from: "127.0.0.1", [("X-Forwarded-For", "127.0.0.1")])
        expectError(viaProxy, 404, "not_found")
    }

    @Test func otherRoutesAreNotGuarded() throws {
        let api = try TestAPI()
        #expect(try api.send("GET", "/api/v1/categories", from: "203.0.113.9").status == 200)
    }
}
