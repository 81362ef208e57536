import HTTP
import Metrics
import Testing

@Suite("MetricsMiddleware")
struct MetricsMiddlewareTests {
    private func makeResponder(_ registry: MetricsRegistry) -> Responder {
        let routes = Routes()
        routes.group("/api/v1")
            .get("/products/:id") { request, _ in Response.text("product \(try request.parameter("id"))") }
            .post("/fail") { _, _ in throw HTTPError.notFound() }
            .get("/maybe/:id") { request, _ in
                if try request.parameter("id") == "0" { throw HTTPError.notFound() }
                return Response.text("some")
            }
        let router = Router(routes)
        return [MetricsMiddleware(registry: registry)].wrapping { request, context in
            try router.respond(to: request, context: context)
        }
    }

    @Test func countsUnderTheRoutePatternNotThePath() throws {
        let registry = MetricsRegistry()
        let responder = makeResponder(registry)
        _ = try responder(Request(method: "GET", path: "/api/v1/products/7"), Context())
        _ = try responder(Request(method: "GET", path: "/api/v1/products/8"), Context())
        _ = try responder(Request(method: "POST", path: "/api/v1/fail"), Context())
        _ = try responder(Request(method: "GET", path: "/nowhere/123"), Context())
        _ = try responder(Request(method: "BREW", path: "/api/v1/products/7"), Context())
        #expect(registry.value("shop_http_requests_total", ["/api/v1/products/:id", "GET", "200"]) == 2)
        #expect(registry.value("shop_http_requests_total", ["/api/v1/fail", "POST", "404"]) == 1)
        #expect(registry.value("shop_http_requests_total", ["unmatched", "GET", "404"]) == 1)
        #expect(registry.value("shop_http_requests_total", ["unmatched", "other", "405"]) == 1)
        #expect(registry.count("shop_http_request_duration_seconds", ["/api/v1/products/:id"]) == 2)
        let text = registry.exposition()
        #expect(!text.contains("/api/v1/products/7"))
        #expect(text.contains("shop_http_request_duration_seconds_bucket{route=\"unmatched\",le=\"+Inf\"} 2"))
    }

    @Test func eachRouteMethodAndStatusKeepsItsOwnCountAcrossRequests() throws {
        let registry = MetricsRegistry()
        let responder = makeResponder(registry)
        for id in ["1", "0", "2", "0", "3"] {
            _ = try responder(Request(method: "GET", path: "/api/v1/maybe/\(id)"), Context())
        }
        _ = try responder(Request(method: "HEAD", path: "/api/v1/maybe/4"), Context())
        _ = try responder(Request(method: "DELETE", path: "/api/v1/maybe/4"), Context())
        _ = try responder(Request(method: "GET", path: "/nowhere"), Context())
        #expect(registry.value("shop_http_requests_total", ["/api/v1/maybe/:id", "GET", "200"]) == 3)
        #expect(registry.value("shop_http_requests_total", ["/api/v1/maybe/:id", "GET", "404"]) == 2)
        #expect(registry.value("shop_http_requests_total", ["/api/v1/maybe/:id", "HEAD", "200"]) == 1)
        #expect(registry.value("shop_http_requests_total", ["unmatched", "DELETE", "405"]) == 1)
        #expect(registry.value("shop_http_requests_total", ["unmatched", "GET", "404"]) == 1)
        #expect(registry.count("shop_http_request_duration_seconds", ["/api/v1/maybe/:id"]) == 6)
        #expect(registry.count("shop_http_request_duration_seconds", ["unmatched"]) == 2)
    }
}
