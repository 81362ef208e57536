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

    /// The body as untyped JSON, only for tests that check the raw shape on purpose (explicit
    /// nulls, absent keys, the key set); everything else decodes into the API's DTOs with `decode`.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    /// The body decoded into `T` with the API's conventions (snake_case keys, RFC 3339 dates), so a
    /// renamed field fails to compile; a missing or mistyped one throws, naming the status and body.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try JSON.decoder().decode(T.self, from: Data(body))
        } catch {
            throw FixtureError("\(status) \(text) is not a \(T.self): \(error)")
        }
    }

    /// The top-level keys, for tests that check on purpose which keys are written or left out
    /// (a decoder ignores extra keys and cannot tell a missing optional from a null one).
    public var keys: Set<String> { Set(json.keys) }

    /// The keys of the object at `field`, for the same shape checks one level down.
    public func keys(of field: String) -> Set<String> {
        Set((json[field] as? [String: Any] ?? [:]).keys)
    }

    /// The key set of each object in `items`, for the same shape checks on a list.
    public var itemKeys: [Set<String>] { keysOfEach("items") }

    /// The key set of each object in the array at `field`.
    public func keysOfEach(_ field: String) -> [Set<String>] {
        (json[field] as? [[String: Any]] ?? []).map { Set($0.keys) }
    }

    /// The documented error's detail; nil when the body is not an error.
    public var error: ErrorResponse.Detail? { (try? decode(ErrorResponse.self))?.error }
    public var errorCode: String? { error?.code }
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// The error shape every failure answers: `{"error": {"code", "message", "field"?, "retry_after"?}}`.
public struct ErrorResponse: Decodable, Sendable {
    public struct Detail: Decodable, Sendable {
        public let code: String
        public let message: String
        public let field: String?
        public let retryAfter: Int?
    }

    public let error: Detail
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
        api = ShopAPI(shop: testShop.shop, server: server, ticks: Self.ticks(of: testShop.clock))
    }

    /// Monotonic nanoseconds that move with `clock` (so `clock.advance(by:)` also ages kept
    /// catalogue bodies): what a `ShopAPI` made in a test takes as `ticks`.
    public static func ticks(of clock: ManualClock) -> @Sendable () -> UInt64 {
        { UInt64(clock.now.timeIntervalSince1970 * 1_000_000_000) }
    }

    /// Sends one request through the whole middleware chain; `json` is serialised as the body (untyped on
    /// purpose: tests also send ill-typed, null and extra fields).
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

    /// Requests a register code over the API and registers; answers the 201 (a session: decode it
    /// into `SessionResponse`).
    public func register(_ phone: String, password: String = TestAPI.password, nickname: String? = nil) throws -> TestResponse {
        let requested = try send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone, "purpose": "register"])
        guard requested.status == 202, let code = sender.lastCode(to: phone, for: "register") else {
            throw FixtureError("code request answered \(requested.status) \(requested.text)")
        }
        let body = ["phone": phone, "code": code, "password": password].merging(nickname.map { ["nickname": $0] } ?? [:]) { $1 }
        let registered = try send("POST", "/api/v1/auth/register", json: body)
        guard registered.status == 201 else { throw FixtureError("register answered \(registered.status) \(registered.text)") }
        return registered
    }

    /// Registers and answers the bearer token.
    public func token(for phone: String) throws -> String {
        /// The one field needed here; the tests decode the whole session into `SessionResponse`.
        struct Token: Decodable { let token: String }
        return try register(phone).decode(Token.self).token
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

/// The instant an RFC 3339 text names, to compare with the dates decoded from a response.
public func rfc3339(_ text: String) -> Date? {
    ISO8601DateFormatter().date(from: text)
}
