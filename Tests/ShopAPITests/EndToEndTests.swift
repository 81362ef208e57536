import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTP
@testable import ShopAPI
import ShopTestSupport
import Testing

@Suite("API over a real socket")
struct EndToEndTests {
    @Test func registerLogInAndReadMeOverHTTP() async throws {
        let app = try TestAPI()
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0, threads: 2), responder: app.api.responder)
        try server.start()
        defer { server.stop(grace: 5) }
        #expect(server.port != 0)
        let base = "http://127.0.0.1:\(server.port)"
        let phone = "13800138000"

        let code = try await post(base + "/api/v1/auth/verification-codes", ["phone": phone, "purpose": "register"])
        #expect(code.status == 202)
        #expect(code.headers["X-Request-Id"] != nil)
        let digits = try #require(app.sender.lastCode(to: phone, for: "register"))

        let registered = try await post(base + "/api/v1/auth/register",
                                        ["phone": phone, "code": digits, "password": "flower123", "nickname": "小花"])
        #expect(registered.status == 201)
        #expect(registered.headers["Content-Type"] == "application/json; charset=utf-8")

        let login = try await post(base + "/api/v1/auth/login", ["phone": "+86" + phone, "password": "flower123"])
        #expect(login.status == 200)
        let token = try login.decode(SessionResponse.self).token

        var me = URLRequest(url: URL(string: base + "/api/v1/me")!)
        me.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        me.setValue("e2e-request-1", forHTTPHeaderField: "X-Request-Id")
        let profile = try await send(me)
        #expect(profile.status == 200)
        let user = try profile.decode(UserResponse.self)
        #expect(user.nickname == "小花")
        #expect(user.phone == "138****8000")
        #expect(profile.headers["X-Request-Id"] == "e2e-request-1")

        let anonymous = try await send(URLRequest(url: URL(string: base + "/api/v1/me")!))
        #expect(anonymous.status == 401)
        #expect(try anonymous.decode(ErrorResponse.self).error.code == "unauthorized")
    }

    @Test func aDrainingServerSaysSoOnReadyzAndStillServes() async throws {
        let app = try TestAPI()
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0, threads: 2), responder: app.api.responder)
        try server.start()
        defer { server.stop(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        #expect(try await send(URLRequest(url: URL(string: base + "/readyz")!)).status == 200)
        app.shop.startDraining()
        let ready = try await send(URLRequest(url: URL(string: base + "/readyz")!))
        #expect(ready.status == 503)
        #expect(try ready.decode(HealthController.HealthResponse.self).status == "draining")
        #expect(try await send(URLRequest(url: URL(string: base + "/healthz")!)).status == 200)
        let products = try await send(URLRequest(url: URL(string: base + "/api/v1/products")!))
        #expect(products.status == 200)
        _ = try products.decode(PageResponse<ProductSummaryResponse>.self)
    }

    @Test func aCheckoutRunsOnTheWritesBulkheadWhileReadsStayOnTheRequestThreads() async throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([("A", "10.00", 5)])
        let buyer = try app.orderBuyer("13900000001")
        let writes = try #require(app.api.offloadTargets[.writes]?.bulkhead)
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0, threads: 2), offload: app.api.offloadTargets,
                            placement: app.api.placement, responder: app.api.responder)
        try server.start()
        defer { server.stop(grace: 5) }
        let base = "http://127.0.0.1:\(server.port)"
        var checkout = URLRequest(url: URL(string: base + "/api/v1/orders")!)
        checkout.httpMethod = "POST"
        checkout.setValue("application/json", forHTTPHeaderField: "Content-Type")
        checkout.setValue("Bearer \(buyer.token)", forHTTPHeaderField: "Authorization")
        checkout.setValue("e2e-writes", forHTTPHeaderField: "Idempotency-Key")
        checkout.httpBody = try JSONSerialization.data(withJSONObject: app.orderBuyNowBody(buyer, [(try #require(skus["A"]), 2)]))
        let placed = try await send(checkout)
        #expect(placed.status == 201)
        #expect(try app.orderStock(try #require(skus["A"])) == 3)
        #expect(try await send(URLRequest(url: URL(string: base + "/api/v1/products")!)).status == 200)
        // a worker counts its job once the answer is sent: wait for the count
        let deadline = Date().addingTimeInterval(5)
        while writes.statistics.completed < 1, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(writes.statistics.completed == 1, "the checkout ran on the writes bulkhead, the product list did not")
    }

    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: Data

        /// The body decoded into one of the API's DTOs, as `TestResponse.decode` does.
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSON.decoder().decode(T.self, from: body)
        }
    }

    func post(_ url: String, _ body: [String: String]) async throws -> Answer {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(body)
        return try await send(request)
    }

    func send(_ request: URLRequest) async throws -> Answer {
        var request = request
        request.timeoutInterval = 10
        let (data, response) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { continuation.resume(throwing: error) } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }.resume()
        }
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased().capitalizedHeader] = value }
        }
        return Answer(status: http.statusCode, headers: headers, body: data)
    }
}

private extension String {
    /// "x-request-id" → "X-Request-Id", so lookups do not depend on how the stack spelled the name.
    var capitalizedHeader: String {
        split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }
}
