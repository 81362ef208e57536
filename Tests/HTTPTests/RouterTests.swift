import Foundation
import HTTP
import Testing

@Suite("Router")
struct RouterTests {
    private func json(_ response: Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    private func errorCode(_ response: Response) throws -> String? {
        (try json(response)["error"] as? [String: Any])?["code"] as? String
    }

    private func makeRouter() -> Router {
        let router = Router()
        router.group("/api/v1")
            .get("/products/:id") { request, _ in Response.text("product \(try request.parameter("id"))") }
            .get("/products/:id/skus/:sku") { request, _ in
                Response.text("\(try request.parameter("id"))/\(try request.parameter("sku"))")
            }
            .post("/products/:id") { _, _ in Response.text("posted") }
            .patch("/products/:id") { _, _ in Response.text("patched") }
        return router
    }

    @Test func aLiteralSegmentWinsOverAParameterAndOnlyItsMethodsAreAllowed() throws {
        let router = Router()
        router.group("/articles")
            .get("/:id") { request, _ in Response.text("article \(try request.parameter("id"))") }
            .delete("/:id") { _, _ in Response.text("deleted") }
            .get("/top") { _, _ in Response.text("top") }
        let top = try router.respond(to: Request(method: "GET", path: "/articles/top"), context: Context())
        #expect(String(decoding: top.body, as: UTF8.self) == "top")
        let article = try router.respond(to: Request(method: "GET", path: "/articles/7"), context: Context())
        #expect(String(decoding: article.body, as: UTF8.self) == "article 7")
        let deleteTop = try router.respond(to: Request(method: "DELETE", path: "/articles/top"), context: Context())
        #expect(deleteTop.status == .methodNotAllowed)
        #expect(deleteTop.headers["Allow"] == "GET, HEAD")
    }

    @Test func routeParametersAreExtracted() throws {
        let router = makeRouter()
        let response = try router.respond(to: Request(method: "GET", path: "/api/v1/products/42"), context: Context())
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "product 42")
        let nested = try router.respond(to: Request(method: "GET", path: "/api/v1/products/7/skus/玫瑰"), context: Context())
        #expect(String(decoding: nested.body, as: UTF8.self) == "7/玫瑰")
    }

    @Test func methodsSelectTheirHandlerAndTrailingSlashesDoNotMatter() throws {
        let router = makeRouter()
        let post = try router.respond(to: Request(method: "post", path: "/api/v1/products/1/"), context: Context())
        #expect(String(decoding: post.body, as: UTF8.self) == "posted")
        let patch = try router.respond(to: Request(method: "PATCH", path: "/api/v1/products/1"), context: Context())
        #expect(String(decoding: patch.body, as: UTF8.self) == "patched")
    }

    @Test func anUnknownPathIsA404InTheErrorShape() throws {
        let router = makeRouter()
        let error = #expect(throws: HTTPError.self) {
            try router.respond(to: Request(method: "GET", path: "/api/v1/nothing/here"), context: Context())
        }
        #expect(error?.status == .notFound)
        #expect(error?.code == "not_found")
        let response = try #require(error?.response)
        #expect(response.status == .notFound)
        #expect(try errorCode(response) == "not_found")
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test func aKnownPathWithAnotherMethodIsA405ListingTheAllowedOnes() throws {
        let router = makeRouter()
        let response = try router.respond(to: Request(method: "DELETE", path: "/api/v1/products/1"), context: Context())
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, PATCH, POST")
        #expect(try errorCode(response) == "method_not_allowed")
    }

    @Test func headIsRoutedToTheGetHandler() throws {
        let router = makeRouter()
        let response = try router.respond(to: Request(method: "HEAD", path: "/api/v1/products/9"), context: Context())
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "product 9")
    }

    @Test func groupMiddlewareWrapsOnlyItsOwnRoutesOutermostFirst() throws {
        struct Tag: Middleware {
            let name: String
            func respond(to request: Request, context: Context, next: Responder) throws -> Response {
                var response = try next(request, context)
                response.headers.add("X-Trace", name)
                return response
            }
        }
        let router = Router()
        router.group("/open").get("/ping") { _, _ in Response.text("pong") }
        router.group("/secure", middleware: [Tag(name: "outer")])
            .group("/v1", middleware: [Tag(name: "inner")])
            .get("/me") { _, _ in Response.text("me") }
        let open = try router.respond(to: Request(method: "GET", path: "/open/ping"), context: Context())
        #expect(open.headers["X-Trace"] == nil)
        let secure = try router.respond(to: Request(method: "GET", path: "/secure/v1/me"), context: Context())
        #expect(secure.headers.filter { $0.name == "X-Trace" }.map(\.value) == ["inner", "outer"])
        #expect(router.routeTable.map { "\($0.method) \($0.pattern)" } == ["GET /open/ping", "GET /secure/v1/me"])
    }

    @Test func anAbsentParameterIsA404() {
        let error = #expect(throws: HTTPError.self) { try Request(method: "GET", path: "/").parameter("id") }
        #expect(error?.status == .notFound)
    }

    @Test func headersAreMatchedCaseInsensitivelyAndSetReplaces() {
        var headers = Headers([("content-type", "text/plain"), ("X-A", "1")])
        headers.add("x-a", "2")
        #expect(headers["Content-Type"] == "text/plain")
        #expect(headers["X-A"] == "1")
        headers.set("X-a", "3")
        #expect(headers.filter { $0.name.lowercased() == "x-a" }.map(\.value) == ["3"])
    }
}
