import Foundation
import HTTP
import SQLite
import ShopAPI
import ShopCore

/// One answer from the API, with its JSON body parsed.
public struct TestResponse {
    public let status: Int
    public let headers: Headers
    public let body: [UInt8]

    public init(status: Int, headers: Headers, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    public var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
    public var errorCode: String? { error["code"] as? String }
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// `ShopAPI` over a `TestShop` (fresh temp-file database with every migration applied, a manual clock,
/// a capturing code sender and cheap argon2 costs); requests go through the responder in-process.
public final class TestAPI: @unchecked Sendable {
    public static let password = TestShop.password

    /// The shop fixture underneath; it owns (and removes) the temp directory.
    public let testShop: TestShop
    public let api: ShopAPI

    public var directory: URL { testShop.directory }
    public var clock: ManualClock { testShop.clock }
    public var sender: CapturingCodeSender { testShop.sender }
    public var shop: Shop { testShop.shop }

    /// The HTTP settings `api` was built with.
    public let server: ServerSettings

    public init(server: ServerSettings = ServerSettings(), _ configure: (inout Config) -> Void = { _ in }) throws {
        testShop = try TestShop(directoryPrefix: "shopapi-tests", processesImages: true, configure)
        self.server = server
        api = ShopAPI(shop: testShop.shop, server: server)
    }

    /// Sends one request through the whole middleware chain; `json` is serialised as the body.
    public func send(_ method: String, _ path: String, query: [String: String] = [:], json: Any? = nil, token: String? = nil,
                     headers extra: [(String, String)] = [], from clientIP: String = "10.0.0.1") throws -> TestResponse {
        var headers = Headers()
        var body: [UInt8] = []
        if let json {
            body = Array(try JSONSerialization.data(withJSONObject: json))
            headers.set("Content-Type", "application/json")
        }
        if let token { headers.set("Authorization", "Bearer \(token)") }
        for (name, value) in extra { headers.set(name, value) }
        return try send(Request(method: method, path: path, query: query, headers: headers, body: body, remoteAddress: clientIP))
    }

    public func send(_ request: Request) throws -> TestResponse {
        let response = try api.responder(request, Context())
        return TestResponse(status: response.status.code, headers: response.headers, body: response.body)
    }

    /// Requests a register code over the API and registers; answers the 201's JSON.
    public func register(_ phone: String, password: String = TestAPI.password, nickname: String? = nil) throws -> [String: Any] {
        let requested = try send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone, "purpose": "register"])
        guard requested.status == 202, let code = sender.lastCode(to: phone, for: "register") else {
            throw FixtureError("code request answered \(requested.status) \(requested.text)")
        }
        var body: [String: Any] = ["phone": phone, "code": code, "password": password]
        if let nickname { body["nickname"] = nickname }
        let registered = try send("POST", "/api/v1/auth/register", json: body)
        guard registered.status == 201 else { throw FixtureError("register answered \(registered.status) \(registered.text)") }
        return registered.json
    }

    /// Registers and answers the bearer token.
    public func token(for phone: String) throws -> String {
        guard let token = try register(phone)["token"] as? String else { throw FixtureError("no token") }
        return token
    }
}

extension ServerSettings {
    /// The defaults with `change` made: `TestAPI(server: .with { $0.trustedProxies = "10.0.0.0/8" })`.
    public static func with(_ change: (inout ServerSettings) -> Void) -> ServerSettings {
        var settings = ServerSettings()
        change(&settings)
        return settings
    }
}
