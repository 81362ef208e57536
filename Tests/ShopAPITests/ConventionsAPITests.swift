import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

@Suite("API conventions")
struct ConventionsAPITests {
    @Test func everyResponseCarriesARequestIdAndEchoesTheClients() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        let requests: [(String, String, Any?, String?)] = [
            ("GET", "/healthz", nil, nil),
            ("GET", "/readyz", nil, nil),
            ("GET", "/api/v1/me", nil, token),
            ("GET", "/api/v1/me", nil, nil),
            ("GET", "/api/v1/nowhere", nil, nil),
            ("DELETE", "/api/v1/me", nil, token),
            ("POST", "/api/v1/auth/login", ["phone": "13800138000", "password": "wrong-password"], nil),
            ("POST", "/api/v1/auth/verification-codes", ["phone": "13900139000", "purpose": "register"], nil),
        ]
        var generated = Set<String>()
        for (method, path, body, bearer) in requests {
            let plain = try app.send(method, path, json: body, token: bearer)
            let id = try #require(plain.headers["X-Request-Id"], "\(method) \(path)")
            #expect(!id.isEmpty)
            generated.insert(id)
            let echoed = try app.send(method, path, json: body, token: bearer, headers: [("x-request-id", "client-id-42")])
            #expect(echoed.headers["X-Request-Id"] == "client-id-42", "\(method) \(path)")
        }
        #expect(generated.count == requests.count, "each request gets its own id")
        // An id that could break a log line is replaced, never echoed.
        let hostile = try app.send("GET", "/healthz", headers: [("X-Request-Id", "a b\nc")])
        #expect(hostile.headers["X-Request-Id"] != nil && hostile.headers["X-Request-Id"] != "a b\nc")
    }

    @Test func aBodyThatIsNotJSONIs415() throws {
        let app = try TestAPI()
        let request = Request(method: "POST", path: "/api/v1/auth/login", query: [:],
                              headers: Headers([("Content-Type", "text/plain")]),
                              body: Array("phone=13800138000&password=flower123".utf8), remoteAddress: "10.0.0.1")
        let response = try app.send(request)
        expectError(response, 415, "unsupported_media_type")
        #expect(response.headers["X-Request-Id"] != nil)
    }

    @Test func malformedJSONIs400InvalidRequest() throws {
        let app = try TestAPI()
        let request = Request(method: "POST", path: "/api/v1/auth/login", query: [:],
                              headers: Headers([("Content-Type", "application/json")]),
                              body: Array("{\"phone\": ".utf8), remoteAddress: "10.0.0.1")
        expectError(try app.send(request), 400, "invalid_request")
        let empty = Request(method: "POST", path: "/api/v1/auth/login", query: [:],
                            headers: Headers([("Content-Type", "application/json")]), body: [], remoteAddress: "10.0.0.1")
        expectError(try app.send(empty), 400, "invalid_request")
    }

    @Test func aJSONBodyWithInvalidUTF8Is400ValidationFailed() throws {
        let app = try TestAPI()
        let body = Array(#"{"phone": "13800138000", "purpose": "register", "locale": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        let request = Request(method: "POST", path: "/api/v1/auth/verification-codes", query: [:],
                              headers: Headers([("Content-Type", "application/json")]), body: body, remoteAddress: "10.0.0.1")
        expectError(try app.send(request), 400, "validation_failed")
    }

    @Test func theStorefrontForbidsFramingOfItsPageAndAssets() throws {
        let app = try TestAPI()
        for path in ["/", "/assets/app.js", "/assets/style.css"] {
            let response = try app.send("GET", path)
            #expect(response.status == 200, "\(path)")
            #expect(response.headers["X-Frame-Options"] == "DENY", "\(path)")
            let policy = try #require(response.headers["Content-Security-Policy"], "\(path)")
            #expect(policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                        .contains("frame-ancestors 'none'"), "\(path)")
        }
    }

    @Test func aBrowserLibraryIsServedFromWhereItsDebianPackageInstalledIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("floral-lib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("qrcode.js")
        try Data("var qrcode = function () {};".utf8).write(to: library)
        let controller = StorefrontController(directory: nil, libraries: ["qrcode.js": library.path, "absent.js": directory.appendingPathComponent("no.js").path])
        #expect(controller.files["vendor/qrcode.js"].map { String(decoding: $0.body, as: UTF8.self) } == "var qrcode = function () {};")
        #expect(controller.files["vendor/qrcode.js"]?.contentType == "text/javascript; charset=utf-8")
        #expect(controller.files["vendor/absent.js"] == nil, "a library not installed is not served")
        #expect(StorefrontController.debianLibraries["qrcode.js"] == "/usr/share/javascript/qrcode-generator/qrcode.js")
    }

    @Test func unknownFieldsAreIgnored() throws {
        let app = try TestAPI()
        let response = try app.send("POST", "/api/v1/auth/verification-codes",
                                    json: ["phone": "13800138000", "purpose": "register", "locale": "zh-CN"])
        #expect(response.status == 202)
    }

    @Test func unknownRoutesAre404AndWrongMethodsAre405InTheErrorShape() throws {
        let app = try TestAPI()
        expectError(try app.send("GET", "/api/v1/nowhere"), 404, "not_found")
        let wrongMethod = try app.send("DELETE", "/api/v1/auth/login")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.keys == ["error"])
        #expect(wrongMethod.headers["Allow"] == "POST")
    }

    @Test func healthAndReadinessAnswerOK() throws {
        let app = try TestAPI()
        let health = try app.send("GET", "/healthz")
        #expect(health.status == 200)
        #expect(try health.decode(HealthController.HealthResponse.self).status == "ok")
        let ready = try app.send("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(try ready.decode(HealthController.HealthResponse.self).status == "ok")
    }

    /// With `app.log_format` json the access log is one JSON object per request, carrying the request id.
    @Test func theAccessLogInJSONCarriesTheRequestID() throws {
        let app = try TestAPI()
        let lines = Outcomes<String>()
        let logger = Logger(minimumLevel: .info, format: .json) { lines.record($0) }
        let shop = try Shop(pool: app.shop.pool, search: app.shop.search, config: app.testShop.config, notifyURL: TestShop.notifyURL, logger: logger,
                            migrator: app.shop.migrator, codeSender: app.sender)
        let response = try ShopAPI(shop: shop).responder(
            Request(method: "GET", path: "/healthz", headers: Headers([("X-Request-Id", "json-log-1")])), Context())
        #expect(response.status.code == 200)
        // Untyped on purpose: a JSON log line, not an API response; no DTO describes it.
        let access = try #require(lines.all.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.first { $0["message"] as? String == "request" })
        #expect(access["id"] as? String == "json-log-1")
        #expect(access["path"] as? String == "/healthz")
        #expect(access["status"] as? String == "200")
        #expect(access["level"] as? String == "info")
    }

    /// After SIGTERM `shop serve` drains: `/readyz` turns 503 so a load balancer stops sending,
    /// while every other route keeps answering.
    @Test func readinessSaysDrainingOnceDrainingWhileOtherRoutesStillServe() throws {
        let app = try TestAPI()
        #expect(!app.shop.isDraining)
        app.shop.startDraining()
        #expect(app.shop.isDraining)
        let ready = try app.send("GET", "/readyz")
        #expect(ready.status == 503)
        #expect(try ready.decode(HealthController.HealthResponse.self).status == "draining")
        #expect(try app.send("GET", "/healthz").status == 200)
        #expect(try app.send("GET", "/api/v1/products").status == 200)
    }
}
