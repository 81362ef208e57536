import Foundation
import HTTP
import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// `/docs` (the reference page), `/openapi.json` with `servers` from the request's host, and CORS
/// for `server.cors_origins` through the whole middleware chain.
/// The one part of the OpenAPI document these tests read typed: the API's DTOs do not describe the
/// document (it is a file served as written), so this small shape stands in for them.
struct OpenAPIServers: Decodable {
    struct Server: Decodable { let url: String }
    let openapi: String?
    let servers: [Server]
}

@Suite("Docs and CORS API")
struct DocsAPITests {
    static let documentPath = Repository.root().appendingPathComponent("openapi.json").path

    /// A test shop's API serving the repository's document, with `configure` applied first.
    private func api(server: ServerSettings = ServerSettings(), _ configure: (inout Config) -> Void = { _ in }) throws -> (TestAPI, ShopAPI) {
        let app = try TestAPI(server: server, configure)
        return (app, ShopAPI(shop: app.shop, server: app.server, documentPath: Self.documentPath))
    }

    private func send(_ api: ShopAPI, _ method: String, _ path: String, _ headers: [(String, String)] = [],
                      from peer: String = "203.0.113.9") throws -> TestResponse {
        let request = Request(method: method, path: path, headers: Headers(headers), remoteAddress: peer)
        let response = try api.responder(request, Context())
        return TestResponse(status: response.status.code, headers: response.headers, body: response.body)
    }

    @Test func theDocsPageIsHTMLThatRevalidatesAndLoadsOnlyTheShopsOwnFiles() throws {
        let (_, api) = try api()
        let page = try send(api, "GET", "/docs")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headers["Cache-Control"] == "no-cache")
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        let policy = try #require(page.headers["Content-Security-Policy"])
        #expect(policy.contains("default-src 'self'") && policy.contains("connect-src 'self'") && policy.contains("frame-ancestors 'none'"))
        #expect(page.text.contains("<script src=\"/docs/assets/docs.js\""))
        #expect(page.text.contains("/docs/assets/docs.css"))
        #expect(!page.text.contains("http://") && !page.text.contains("https://"), "the page needs no other host")
        let etag = try #require(page.headers["ETag"])
        #expect(etag.range(of: #"^"[0-9a-f]{32}"$"#, options: .regularExpression) != nil)
        let again = try send(api, "GET", "/docs", [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.headers["ETag"] == etag)
        #expect(again.headers["Cache-Control"] == "no-cache")
        #expect(again.headers["Content-Type"] == nil)
    }

    @Test func thePagesScriptAndStylesheetAreServedWithTheirTypes() throws {
        let (_, api) = try api()
        let script = try send(api, "GET", "/docs/assets/docs.js")
        #expect(script.status == 200)
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.headers["ETag"] != nil)
        let style = try send(api, "GET", "/docs/assets/docs.css")
        #expect(style.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(try send(api, "GET", "/docs/assets/app.js").status == 404, "the storefront's files are not the page's")
        #expect(try send(api, "GET", "/docs/assets/..%2Fopenapi.json").status == 404)
    }

    /// The page's escaping rests on one rule: text from the document only ever enters the page
    /// as text nodes (descriptions hold `<`, backticks and Chinese).
    @Test func theScriptNeverWritesDocumentTextAsHTML() throws {
        let (_, api) = try api()
        let script = try send(api, "GET", "/docs/assets/docs.js").text
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            #expect(!script.contains(sink), "docs.js uses \(sink)")
        }
        #expect(script.contains("textContent"))
    }

    @Test func theDocumentsServersNameTheHostTheRequestReached() throws {
        let (_, api) = try api()
        let response = try send(api, "GET", "/openapi.json", [("Host", "192.168.1.20:8080")])
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        let servers = try response.decode(OpenAPIServers.self).servers
        #expect(servers.count == 1)
        #expect(servers.first?.url == "http://192.168.1.20:8080")
        #expect(response.headers["Vary"] == "Host", "an answer built from the Host varies with it")
        // Apart from `servers`, the document is the file as written, key order included.
        let file = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        #expect(file.contains("\"url\": \"http://127.0.0.1:8080\""))
        #expect(response.text.replacingOccurrences(of: "http://192.168.1.20:8080", with: "http://127.0.0.1:8080") == file)
    }

    @Test("A bad or missing Host leaves the document's own servers", arguments: ["evil\"},{\"url\":\"https://evil.example", "<b>", ""])
    func aBadHostIsNotReflected(_ host: String) throws {
        let (_, api) = try api()
        let headers = host.isEmpty ? [] : [("Host", host)]
        let response = try send(api, "GET", "/openapi.json", headers)
        #expect(response.status == 200)
        let file = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        #expect(response.text == file)
        #expect(!response.text.contains("evil"))
    }

    @Test func behindATrustedProxyTheServersFollowItsForwardedSchemeAndHost() throws {
        let (_, api) = try api(server: .with { $0.trustedProxies = "10.0.0.0/8" })
        let forwarded = [("Host", "127.0.0.1:8081"), ("X-Forwarded-Host", "shop.example"), ("X-Forwarded-Proto", "https")]
        let viaProxy = try send(api, "GET", "/openapi.json", forwarded, from: "10.0.0.5")
        #expect(try viaProxy.decode(OpenAPIServers.self).servers.first?.url == "https://shop.example")
        let direct = try send(api, "GET", "/openapi.json", forwarded, from: "203.0.113.9")
        #expect(try direct.decode(OpenAPIServers.self).servers.first?.url == "http://127.0.0.1:8081")
    }

    @Test func withAPublicURLTheServersNameItWhateverTheRequestSays() throws {
        let (_, api) = try api(server: .with { $0.trustedProxies = "10.0.0.0/8" }) {
            $0.app.env = .production
            $0.app.publicURL = "https://floral.example.cn/"
        }
        let forged = [("Host", "evil.example"), ("X-Forwarded-Host", "evil.example"), ("X-Forwarded-Proto", "http")]
        for peer in ["10.0.0.5", "203.0.113.9"] {
            let response = try send(api, "GET", "/openapi.json", forged, from: peer)
            #expect(try response.decode(OpenAPIServers.self).servers.first?.url == "https://floral.example.cn")
            #expect(!response.text.contains("evil.example"))
            #expect(response.headers["Vary"] == nil)
        }
    }

    @Test func inProductionWithoutAPublicURLTheRequestIsNeverEchoed() throws {
        let (_, api) = try api { $0.app.env = .production }
        let response = try send(api, "GET", "/openapi.json", [("Host", "evil.example")])
        #expect(response.status == 200)
        #expect(response.text == (try String(contentsOfFile: Self.documentPath, encoding: .utf8)))
    }

    @Test func withoutConfiguredOriginsNoAnswerCarriesCORSHeaders() throws {
        let (_, api) = try api()
        let simple = try send(api, "GET", "/api/v1/categories", [("Origin", "https://shop.example")])
        #expect(simple.status == 200)
        #expect(simple.headers["Access-Control-Allow-Origin"] == nil)
        let preflight = try send(api, "OPTIONS", "/api/v1/cart", [("Origin", "https://shop.example"), ("Access-Control-Request-Method", "DELETE")])
        #expect(preflight.status == 405)
        #expect(!preflight.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
    }

    @Test func aConfiguredOriginGetsCORSOnAnswersErrorsAnd304s() throws {
        let (_, api) = try api(server: .with { $0.corsOrigins = ["https://shop.example"] })
        let origin = ("Origin", "https://shop.example")
        let preflight = try send(api, "OPTIONS", "/api/v1/cart", [origin, ("Access-Control-Request-Method", "DELETE"),
                                                                  ("Access-Control-Request-Headers", "authorization")])
        #expect(preflight.status == 204)
        #expect(preflight.headers["Access-Control-Allow-Origin"] == "https://shop.example")
        #expect(preflight.headers["Access-Control-Allow-Methods"] == "DELETE, GET, HEAD")
        #expect(preflight.headers["X-Request-Id"] != nil)
        let list = try send(api, "GET", "/api/v1/products", [origin])
        #expect(list.status == 200)
        #expect(list.headers["Access-Control-Allow-Origin"] == "https://shop.example")
        #expect(list.headers["Access-Control-Expose-Headers"]?.contains("ETag") == true)
        let etag = try #require(list.headers["ETag"])
        let unchanged = try send(api, "GET", "/api/v1/products", [origin, ("If-None-Match", etag)])
        #expect(unchanged.status == 304)
        #expect(unchanged.headers["Access-Control-Allow-Origin"] == "https://shop.example")
        let signedOut = try send(api, "GET", "/api/v1/cart", [origin, ("Accept-Language", "en")])
        #expect(signedOut.status == 401)
        #expect(signedOut.headers["Access-Control-Allow-Origin"] == "https://shop.example")
        #expect(signedOut.headers["Vary"] == "Accept-Language, Origin")
        let stranger = try send(api, "GET", "/api/v1/products", [("Origin", "https://evil.example")])
        #expect(stranger.headers["Access-Control-Allow-Origin"] == nil)
        #expect(stranger.headers["Vary"] == "Origin")
    }
}
