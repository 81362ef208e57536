import Bulkheads
import HTTP
@testable import ShopAPI
import ShopTestSupport
import Testing

/// The routes that always wait run on their bulkhead, moved there before anything runs: the
/// buyers' frequent writes that wait for their commit to reach the disk on `writes`, password
/// hashing on `hashing`, pictures on `media`; every read stays on the request threads.
struct WritePlacementTests {
    @Test func buyersWritesAreDeclaredOnTheWritesBulkheadAndReadsOnNone() throws {
        let app = try TestAPI()
        let placed: [(String, String, BulkheadName?)] = [
            ("POST", "/api/v1/orders", .writes),
            ("POST", "/api/v1/orders/12/cancel", .writes),
            ("POST", "/api/v1/orders/12/confirm-receipt", .writes),
            ("PUT", "/api/v1/favorites/products/4", .writes),
            ("DELETE", "/api/v1/favorites/products/4", .writes),
            ("POST", "/api/v1/auth/login", .hashing),
            ("POST", "/api/v1/auth/register", .hashing),
            ("POST", "/api/v1/admin/auth/login", .hashing),
            ("GET", "/api/v1/orders", nil),
            ("GET", "/api/v1/orders/12", nil),
            ("GET", "/api/v1/cart", nil),
            // a cart change commits without waiting for the disk: it stays where it arrives
            ("POST", "/api/v1/cart/items", nil),
            ("PATCH", "/api/v1/cart/items/3", nil),
            ("DELETE", "/api/v1/cart", nil),
            ("GET", "/api/v1/products", nil),
            ("HEAD", "/api/v1/products/4", nil),
            ("POST", "/api/v1/addresses", nil),
            ("POST", "/api/v1/nowhere", nil),
        ]
        for (method, path, bulkhead) in placed {
            #expect(app.api.placement(Request(method: method, path: path)) == bulkhead, "\(method) \(path)")
        }
        // every bulkhead a route names is one the server has
        #expect(app.api.offloadTargets[.writes] != nil && app.api.offloadTargets[.hashing] != nil)
    }

    @Test func aWriteCalledOnARequestThreadAsksToMoveToTheWritesBulkhead() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "10.00", 5)])
        let buyer = try app.orderBuyer("13900000001")
        let sku = try #require(skus["A"])
        RequestThread.begin()
        defer { RequestThread.end() }
        #expect(throws: OffloadRequest(bulkhead: .writes)) {
            try app.send("POST", "/api/v1/orders", json: app.orderBuyNowBody(buyer, [(sku, 1)]), token: buyer.token,
                         headers: [("Idempotency-Key", "placement")])
        }
        #expect(try app.orderCount() == 0)
        #expect(try app.send("GET", "/api/v1/cart", token: buyer.token).status == 200)
        #expect(RequestThread.mayOffload, "nothing was written on the request thread")
    }
}
