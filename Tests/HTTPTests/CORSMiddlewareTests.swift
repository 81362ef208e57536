import HTTP
import Metrics
import Testing

@Suite("CORSMiddleware")
struct CORSMiddlewareTests {
    static let shop = "https://shop.example"

    /// A small API behind metrics, CORS and the error mapping, in the shop's order.
    private func makeResponder(_ origins: [String], registry: MetricsRegistry = MetricsRegistry()) -> Responder {
        let routes = Routes()
        routes.group("/api")
            .get("/items") { _, _ in Response.text("items") }
            .post("/items") { _, _ in Response.text("made", status: .created) }
            .get("/items/:id") { request, _ in
                if try request.parameter("id") == "0" { throw HTTPError.notFound() }
                var response = Response.text("item")
                response.headers.set("Vary", "Accept-Language")
                return Response.conditional(response, etag: EntityTag("abc"), for: request)
            }
            .delete("/items/:id") { _, _ in Response.empty() }
        let router = Router(routes)
        let errors = ErrorMiddleware(map: { _ in nil }, report: { _, _, _ in })
        return [MetricsMiddleware(registry: registry), CORSMiddleware(policy: CORSPolicy(origins: origins), router: router), errors]
            .wrapping { request, context in try router.respond(to: request, context: context) }
    }

    private func send(_ responder: Responder, _ method: String, _ path: String, _ headers: [(String, String)]) throws -> Response {
        try responder(Request(method: method, path: path, headers: Headers(headers)), Context())
    }

    private func preflight(_ origin: String, method: String = "DELETE") -> [(String, String)] {
        [("Origin", origin), ("Access-Control-Request-Method", method), ("Access-Control-Request-Headers", "authorization")]
    }

    @Test func withNoOriginsConfiguredNoAnswerCarriesACORSHeader() throws {
        let responder = makeResponder([])
        let simple = try send(responder, "GET", "/api/items", [("Origin", Self.shop)])
        #expect(simple.status == .ok)
        let preflight = try send(responder, "OPTIONS", "/api/items/7", preflight(Self.shop))
        #expect(preflight.status.code == 405)
        for response in [simple, preflight] {
            #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
            #expect(response.headers["Vary"]?.contains("Origin") != true)
        }
    }

    @Test func anAllowedOriginGetsItselfBackWithTheExposedHeadersAndVaryOrigin() throws {
        let responder = makeResponder([Self.shop, "http://127.0.0.1:3000"])
        let response = try send(responder, "GET", "/api/items", [("Origin", Self.shop)])
        #expect(response.status == .ok)
        #expect(response.headers["Access-Control-Allow-Origin"] == Self.shop)
        #expect(response.headers["Access-Control-Expose-Headers"] == "ETag, Retry-After, X-Request-Id, Content-Language, Allow")
        #expect(response.headers["Vary"] == "Origin")
        #expect(response.headers["Access-Control-Allow-Credentials"] == nil)
        let other = try send(responder, "GET", "/api/items", [("Origin", "http://127.0.0.1:3000")])
        #expect(other.headers["Access-Control-Allow-Origin"] == "http://127.0.0.1:3000")
    }

    @Test("An origin not on the list gets no CORS header", arguments: [
        "https://evil.example", "http://shop.example", "https://shop.example:8443", "https://shop.example.evil.example", "null", "",
    ])
    func aDisallowedOriginGetsNoCORSHeaders(_ origin: String) throws {
        let responder = makeResponder([Self.shop])
        let response = try send(responder, "GET", "/api/items", [("Origin", origin)])
        #expect(response.status == .ok)
        #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
        #expect(response.headers["Vary"] == "Origin", "the answer still depends on the origin, so caches must key on it")
    }

    @Test func aPreflightFromAnAllowedOriginIsAnswered204WithTheRoutesOwnMethods() throws {
        let responder = makeResponder([Self.shop])
        let response = try send(responder, "OPTIONS", "/api/items/7", preflight(Self.shop))
        #expect(response.status == .noContent)
        #expect(response.body.isEmpty)
        #expect(response.headers["Access-Control-Allow-Origin"] == Self.shop)
        #expect(response.headers["Access-Control-Allow-Methods"] == "DELETE, GET, HEAD")
        let allowed = try #require(response.headers["Access-Control-Allow-Headers"])
        for name in ["Authorization", "Content-Type", "Idempotency-Key", "Accept-Language", "If-None-Match"] {
            #expect(allowed.contains(name))
        }
        #expect(response.headers["Access-Control-Max-Age"] == "600")
        #expect(response.headers["Vary"] == "Origin")
        let collection = try send(responder, "OPTIONS", "/api/items", preflight(Self.shop, method: "POST"))
        #expect(collection.headers["Access-Control-Allow-Methods"] == "GET, HEAD, POST")
    }

    @Test func aPreflightFromAnotherOriginGetsNoAllowHeaders() throws {
        let responder = makeResponder([Self.shop])
        let response = try send(responder, "OPTIONS", "/api/items/7", preflight("https://evil.example"))
        #expect(response.status.code == 405)
        #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
    }

    @Test func anOptionsRequestThatIsNotAPreflightOrHasNoRouteGoesToTheRouter() throws {
        let responder = makeResponder([Self.shop])
        let plain = try send(responder, "OPTIONS", "/api/items/7", [("Origin", Self.shop)])
        #expect(plain.status.code == 405)
        #expect(plain.headers["Allow"] == "DELETE, GET, HEAD")
        #expect(plain.headers["Access-Control-Allow-Origin"] == Self.shop)
        #expect(plain.headers["Access-Control-Allow-Methods"] == nil)
        let nowhere = try send(responder, "OPTIONS", "/nowhere", preflight(Self.shop))
        #expect(nowhere.status == .notFound)
        #expect(nowhere.headers["Access-Control-Allow-Methods"] == nil)
    }

    @Test func starLetsAnyOriginInWithoutVary() throws {
        let responder = makeResponder(["*"])
        let response = try send(responder, "GET", "/api/items", [("Origin", "https://anyone.example")])
        #expect(response.headers["Access-Control-Allow-Origin"] == "*")
        #expect(response.headers["Vary"] == nil)
        let preflight = try send(responder, "OPTIONS", "/api/items/7", preflight("https://anyone.example"))
        #expect(preflight.status == .noContent)
        #expect(preflight.headers["Access-Control-Allow-Origin"] == "*")
        let none = try send(responder, "GET", "/api/items", [])
        #expect(none.headers["Access-Control-Allow-Origin"] == nil, "a request without Origin is not a cross-origin one")
    }

    @Test func errorsAndNotModifiedAnswersCarryTheHeadersAndKeepTheirOwnVary() throws {
        let responder = makeResponder([Self.shop])
        let missing = try send(responder, "GET", "/api/items/0", [("Origin", Self.shop), ("Accept-Language", "en")])
        #expect(missing.status == .notFound)
        #expect(missing.headers["Access-Control-Allow-Origin"] == Self.shop)
        #expect(missing.headers["Vary"] == "Accept-Language, Origin")
        let unchanged = try send(responder, "GET", "/api/items/7", [("Origin", Self.shop), ("If-None-Match", "\"abc\"")])
        #expect(unchanged.status == .notModified)
        #expect(unchanged.headers["ETag"] == "\"abc\"")
        #expect(unchanged.headers["Access-Control-Allow-Origin"] == Self.shop)
        #expect(unchanged.headers.values(of: "Vary") == ["Accept-Language, Origin"])
    }

    @Test func aPreflightIsCountedUnderItsRoute() throws {
        let registry = MetricsRegistry()
        let responder = makeResponder([Self.shop], registry: registry)
        _ = try send(responder, "OPTIONS", "/api/items/7", preflight(Self.shop))
        _ = try send(responder, "OPTIONS", "/api/items/8", preflight(Self.shop))
        _ = try send(responder, "OPTIONS", "/nowhere", preflight(Self.shop))
        #expect(registry.value("shop_http_requests_total", ["/api/items/:id", "OPTIONS", "204"]) == 2)
        #expect(registry.value("shop_http_requests_total", ["unmatched", "OPTIONS", "404"]) == 1)
    }
}
