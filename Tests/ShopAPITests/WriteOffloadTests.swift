import Bulkheads
import HTTP
@testable import ShopAPI
import ShopTestSupport
import Testing

/// Checkouts and cart writes wait for row locks and for their commit: they run on the `database`
/// bulkhead, never on a request thread, while catalogue and cart reads stay on the request threads.
struct WriteOffloadTests {
    @Test func checkoutsAndCartWritesMoveToTheDatabaseBulkheadAndReadsStay() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "10.00", 5)])
        let buyer = try app.orderBuyer("13900000001")
        let sku = try #require(skus["A"])
        let writes: [(String, String, [String: Any])] = [
            ("POST", "/api/v1/orders", app.orderBuyNowBody(buyer, [(sku, 1)])),
            ("POST", "/api/v1/cart/items", ["sku_id": sku, "quantity": 1]),
            ("PATCH", "/api/v1/cart/items/1", ["quantity": 2]),
            ("DELETE", "/api/v1/cart/items/1", [:]),
            ("DELETE", "/api/v1/cart", [:]),
            ("POST", "/api/v1/orders/1/cancel", [:]),
        ]
        RequestThread.begin()
        defer { RequestThread.end() }
        for (method, path, body) in writes {
            #expect(throws: OffloadRequest(bulkhead: .database), "\(method) \(path)") {
                try app.send(method, path, json: body.isEmpty ? nil : body, token: buyer.token,
                             headers: [("Idempotency-Key", "offload")])
            }
        }
        #expect(try app.send("GET", "/api/v1/cart", token: buyer.token).status == 200)
        #expect(try app.send("GET", "/api/v1/products").status == 200)
        #expect(RequestThread.mayOffload, "nothing was written on the request thread")
    }
}
