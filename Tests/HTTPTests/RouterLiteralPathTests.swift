import HTTP
import Testing

@Suite("Router literal paths")
struct RouterLiteralPathTests {
    private func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

    private func makeRouter() -> Router {
        let routes = Routes()
        let root = routes.group("")
        root.get("/") { _, _ in Response.text("root") }
        root.get("/healthz") { _, _ in Response.text("health") }
        root.get("/articles/:id") { request, _ in Response.text("article \(try request.parameter("id"))") }
        root.get("/articles/top") { _, _ in Response.text("top") }
        root.post("/articles/top") { _, _ in Response.text("posted top") }
        root.get("/articles/top") { _, _ in Response.text("second top") }
        root.get("/玫瑰/花束") { _, _ in Response.text("bouquet") }
        return Router(routes)
    }

    @Test("A literal route answers the same however its path is written", arguments: [
        ("/", "root"), ("//", "root"), ("/healthz", "health"), ("/healthz/", "health"), ("//healthz", "health"),
        ("/articles/top", "top"), ("/articles//top/", "top"), ("/articles/7", "article 7"), ("/articles/7/", "article 7"),
        ("/玫瑰/花束", "bouquet"), ("/玫瑰//花束/", "bouquet"),
    ])
    func aLiteralRouteAnswersTheSameHoweverItsPathIsWritten(path: String, expected: String) throws {
        let router = makeRouter()
        #expect(text(try router.respond(to: Request(method: "GET", path: path), context: Context())) == expected)
        #expect(text(try router.respond(to: Request(method: "HEAD", path: path), context: Context())) == expected)
    }

    @Test func aLiteralPathKeepsItsMethodsAnd405() throws {
        let router = makeRouter()
        #expect(text(try router.respond(to: Request(method: "POST", path: "/articles/top"), context: Context())) == "posted top")
        let delete = try router.respond(to: Request(method: "DELETE", path: "/articles/top"), context: Context())
        #expect(delete.status == .methodNotAllowed)
        #expect(delete.headers["Allow"] == "GET, HEAD, POST")
        let deleteRoot = try router.respond(to: Request(method: "DELETE", path: "/"), context: Context())
        #expect(deleteRoot.status == .methodNotAllowed)
        #expect(throws: HTTPError.self) { try router.respond(to: Request(method: "GET", path: "/healthz/x"), context: Context()) }
    }
}
