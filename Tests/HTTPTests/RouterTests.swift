import Foundation
import HTTP
import Localization
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
        let routes = Routes()
        routes.group("/api/v1")
            .get("/products/:id") { request, _ in Response.text("product \(try request.parameter("id"))") }
            .get("/products/:id/skus/:sku") { request, _ in
                Response.text("\(try request.parameter("id"))/\(try request.parameter("sku"))")
            }
            .post("/products/:id") { _, _ in Response.text("posted") }
            .patch("/products/:id") { _, _ in Response.text("patched") }
        return Router(routes)
    }

    @Test func aLiteralSegmentWinsOverAParameterAndOnlyItsMethodsAreAllowed() throws {
        let routes = Routes()
        routes.group("/articles")
            .get("/:id") { request, _ in Response.text("article \(try request.parameter("id"))") }
            .delete("/:id") { _, _ in Response.text("deleted") }
            .get("/top") { _, _ in Response.text("top") }
        let router = Router(routes)
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
        let response = try #require(error?.response(in: .english))
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
        let routes = Routes()
        routes.group("/open").get("/ping") { _, _ in Response.text("pong") }
        routes.group("/secure", middleware: [Tag(name: "outer")])
            .group("/v1", middleware: [Tag(name: "inner")])
            .get("/me") { _, _ in Response.text("me") }
        let router = Router(routes)
        let open = try router.respond(to: Request(method: "GET", path: "/open/ping"), context: Context())
        #expect(open.headers["X-Trace"] == nil)
        let secure = try router.respond(to: Request(method: "GET", path: "/secure/v1/me"), context: Context())
        #expect(secure.headers.filter { $0.name == "X-Trace" }.map(\.value) == ["inner", "outer"])
        #expect(router.routeTable.map { "\($0.method) \($0.pattern)" } == ["GET /open/ping", "GET /secure/v1/me"])
    }

    private func body(_ router: Router, _ method: String, _ path: String) throws -> String {
        String(decoding: try router.respond(to: Request(method: method, path: path), context: Context()).body, as: UTF8.self)
    }

    @Test func theMostLiteralPatternWinsWhereverItsLiteralsSit() throws {
        let routes = Routes()
        routes.group("")
            .get("/:a/:b/:c") { _, _ in Response.text("none") }
            .get("/shop/:b/:c") { _, _ in Response.text("first") }
            .get("/:a/:b/items") { _, _ in Response.text("last") }
            .get("/:a/orders/items") { request, _ in Response.text("two \(try request.parameter("a"))") }
        let router = Router(routes)
        #expect(try body(router, "GET", "/shop/orders/items") == "two shop")
        #expect(try body(router, "GET", "/shop/x/y") == "first")
        #expect(try body(router, "GET", "/x/y/items") == "last")
        #expect(try body(router, "GET", "/x/y/z") == "none")
    }

    @Test func equallySpecificPatternsAnswerInTheOrderAdded() throws {
        let routes = Routes()
        routes.group("")
            .get("/a/:x") { request, _ in Response.text("x \(try request.parameter("x"))") }
            .get("/:y/b") { request, _ in Response.text("y \(try request.parameter("y"))") }
            .post("/:y/b") { _, _ in Response.text("posted") }
            .get("/a/:z") { _, _ in Response.text("never") }
        let router = Router(routes)
        #expect(try body(router, "GET", "/a/b") == "x b")
        #expect(try body(router, "POST", "/a/b") == "posted")
        #expect(try body(router, "GET", "/c/b") == "y c")
        let put = try router.respond(to: Request(method: "PUT", path: "/a/b"), context: Context())
        #expect(put.status == .methodNotAllowed)
        #expect(put.headers["Allow"] == "GET, HEAD, POST")
    }

    @Test func eachMethodFindsOnlyItsOwnHandlerAndAMoreSpecificPathDecidesThe405() throws {
        let routes = Routes()
        routes.group("/items")
            .get("/:id") { _, _ in Response.text("get") }
            .put("/:id") { _, _ in Response.text("put") }
            .delete("/:id") { _, _ in Response.text("delete") }
            .post("/new") { _, _ in Response.text("create") }
        let router = Router(routes)
        #expect(try body(router, "GET", "/items/3") == "get")
        #expect(try body(router, "PUT", "/items/3") == "put")
        #expect(try body(router, "DELETE", "/items/3") == "delete")
        #expect(try body(router, "POST", "/items/new") == "create")
        let getNew = try router.respond(to: Request(method: "GET", path: "/items/new"), context: Context())
        #expect(getNew.status == .methodNotAllowed)
        #expect(getNew.headers["Allow"] == "POST")
        let postOther = try router.respond(to: Request(method: "POST", path: "/items/3"), context: Context())
        #expect(postOther.headers["Allow"] == "DELETE, GET, HEAD, PUT")
        for path in ["/items", "/items/3/more", "/other/3", "/"] {
            let error = #expect(throws: HTTPError.self) { try router.respond(to: Request(method: "GET", path: path), context: Context()) }
            #expect(error?.status == .notFound)
        }
    }

    @Test func aThousandRoutesEachAnswerTheirOwnPath() throws {
        let routes = Routes()
        for section in 0..<40 {
            let group = routes.group("/s\(section)")
            for page in 0..<25 {
                group.get("/p\(page)/:id") { request, _ in Response.text("\(section).\(page).\(try request.parameter("id"))") }
            }
        }
        routes.group("").get("/:section/:page/:id") { _, _ in Response.text("fallback") }
        let router = Router(routes)
        #expect(router.routeTable.count == 1_001)
        for section in stride(from: 0, to: 40, by: 7) {
            for page in stride(from: 0, to: 25, by: 6) {
                #expect(try body(router, "GET", "/s\(section)/p\(page)/9") == "\(section).\(page).9")
            }
        }
        #expect(try body(router, "GET", "/s40/p0/9") == "fallback")
        #expect(try body(router, "HEAD", "/s3/p30/9") == "fallback")
    }

    @Test func routesAddedAfterFreezingAreNotServed() throws {
        let routes = Routes()
        routes.group("").get("/before") { _, _ in Response.text("before") }
        let router = Router(routes)
        routes.group("").get("/after") { _, _ in Response.text("after") }
        #expect(try body(router, "GET", "/before") == "before")
        #expect(router.routeTable.map(\.pattern) == ["/before"])
        #expect(throws: HTTPError.self) { try router.respond(to: Request(method: "GET", path: "/after"), context: Context()) }
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
