import Foundation
import HTTP
import SQLite
import ShopAPI
import ShopCore

/// The repository this test file lives in, found by walking up from `#filePath` to `Package.swift`.
enum Repository {
    static func root(from file: String = #filePath) -> URL {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(file)")
    }

    static var migrations: String { root().appendingPathComponent("Migrations").path }
}

/// Records every code the shop sends, from any thread.
final class CapturingCodeSender: CodeSender, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [CodeMessage] = []

    func send(_ message: CodeMessage) {
        lock.lock()
        sent.append(message)
        lock.unlock()
    }

    var messages: [CodeMessage] {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    func lastCode(to phone: String, for purpose: String) -> String? {
        messages.last { $0.phone == phone && $0.purpose == purpose }?.code
    }
}

/// One answer from the API, with its JSON body parsed.
struct TestResponse {
    let status: Int
    let headers: Headers
    let body: [UInt8]

    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
    var errorCode: String? { error["code"] as? String }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// `ShopAPI` over a fresh temp-file database with every migration applied, a manual clock,
/// a capturing code sender and cheap argon2 costs; requests go through the responder in-process.
final class TestAPI: @unchecked Sendable {
    static let password = "flower123"

    let directory: URL
    let clock: ManualClock
    let sender: CapturingCodeSender
    let shop: Shop
    let api: ShopAPI

    init(_ configure: (inout Config) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shopapi-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var config = Config()
        config.database.path = directory.appendingPathComponent("shop.sqlite").path
        config.database.readers = 2
        config.auth.pepper = "test-pepper-0123456789"
        config.auth.argon2MemoryKiB = 1_024
        config.auth.argon2Iterations = 1
        configure(&config)
        clock = ManualClock()
        sender = CapturingCodeSender()
        let pool = try DatabasePool(path: config.database.path, readers: config.database.readers,
                                    options: ConnectionOptions(synchronous: .normal))
        let migrator = try Migrator(directory: Repository.migrations)
        try migrator.migrate(pool)
        shop = try Shop(pool: pool, config: config, clock: clock.clock, logger: .silent, migrator: migrator, codeSender: sender)
        api = ShopAPI(shop: shop)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Sends one request through the whole middleware chain; `json` is serialised as the body.
    func send(_ method: String, _ path: String, json: Any? = nil, token: String? = nil,
              headers extra: [(String, String)] = [], from clientIP: String = "10.0.0.1") throws -> TestResponse {
        var headers = Headers()
        var body: [UInt8] = []
        if let json {
            body = Array(try JSONSerialization.data(withJSONObject: json))
            headers.set("Content-Type", "application/json")
        }
        if let token { headers.set("Authorization", "Bearer \(token)") }
        for (name, value) in extra { headers.set(name, value) }
        return try send(Request(method: method, path: path, query: [:], headers: headers, body: body, remoteAddress: clientIP))
    }

    func send(_ request: Request) throws -> TestResponse {
        let response = try api.responder(request, Context())
        return TestResponse(status: response.status.code, headers: response.headers, body: response.body)
    }

    /// Requests a register code over the API and registers; answers the 201's JSON.
    func register(_ phone: String, password: String = TestAPI.password, nickname: String? = nil) throws -> [String: Any] {
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
    func token(for phone: String) throws -> String {
        guard let token = try register(phone)["token"] as? String else { throw FixtureError("no token") }
        return token
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
