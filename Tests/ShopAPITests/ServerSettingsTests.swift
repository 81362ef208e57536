import Foundation
import ShopAPI
import ShopCore
import Testing

/// `server.*`: the HTTP side's settings, read from the shop's settings file beside `Config`.
@Suite("ServerSettings")
struct ServerSettingsTests {
    /// The repository root, found from this file: Tests/ShopAPITests/ServerSettingsTests.swift.
    static let shopJSON = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Config/shop.json").path

    static func load(path: String? = shopJSON, _ environment: [String: String]) throws -> ShopSettings {
        try ShopSettings.load(path: path, environment: environment)
    }

    /// Writes `json` to a settings file in a fresh temporary directory and loads it.
    static func load(json: String) throws -> ShopSettings {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("floral-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("shop.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return try ShopSettings.load(path: path, environment: [:])
    }

    static func texts(_ server: ServerSettings) -> [String: String] {
        Dictionary(uniqueKeysWithValues: ServerSettings.settings.map { ($0.key, $0.text(in: server)) })
    }

    @Test func theShippedFileGivesTheDocumentedDefaults() throws {
        let server = try Self.load([:]).server
        #expect(server.host == "127.0.0.1")
        #expect(server.port == 8080)
        #expect(server.threads == 2 * ProcessInfo.processInfo.activeProcessorCount)
        #expect(server.maxConnections == 1024)
        #expect(server.maxConnectionsPerIP == 64)
        #expect(server.maxBodyBytes == 1_048_576)
        #expect(server.idleTimeoutSeconds == 30)
        #expect(server.requestTimeoutSeconds == 10)
        #expect(server.trustedProxies == "")
        #expect(server.corsOrigins.isEmpty)
        #expect(server.metricsHost == "127.0.0.1" && server.metricsPort == 9464 && server.drainSeconds == 5)
        #expect(Self.texts(server) == Self.texts(try Self.load(path: nil, [:]).server), "the file repeats the defaults in code")
    }

    @Test func theShippedFileListsExactlyTheKeysOfBothTables() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.shopJSON))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        let fileKeys = Set(root.flatMap { section, entries in entries.keys.map { "\(section).\($0)" } })
        #expect(fileKeys.subtracting(ShopSettings.keys).sorted() == [], "in the file but unknown")
        #expect(Set(ShopSettings.keys).subtracting(fileKeys).sorted() == [], "known but missing from the file")
        #expect(ShopSettings.keys.count == Set(ShopSettings.keys).count, "no key listed twice")
        #expect(ServerSettings.keys.allSatisfy { $0.hasPrefix("server.") } && !Config.keys.contains { $0.hasPrefix("server.") })
    }

    @Test func everyKeyCanBeOverriddenFromTheEnvironment() throws {
        let overrides = [
            "server.host": "0.0.0.0", "server.port": "9000", "server.threads": "3", "server.max_connections": "10",
            "server.max_connections_per_ip": "5", "server.max_body_bytes": "2048", "server.idle_timeout_seconds": "7",
            "server.request_timeout_seconds": "4", "server.trusted_proxies": "10.0.0.1, 192.168.0.0/16, fd00::/8",
            "server.cors_origins": "https://shop.example,http://127.0.0.1:3000",
            "server.metrics_host": "0.0.0.0", "server.metrics_port": "9100", "server.drain_seconds": "0",
        ]
        #expect(Set(overrides.keys) == Set(ServerSettings.keys), "this test covers every key")
        let environment = Dictionary(uniqueKeysWithValues: ServerSettings.settings.map { ($0.environmentVariable, overrides[$0.key] ?? "") })
        let defaults = Self.texts(try Self.load([:]).server)
        let overridden = Self.texts(try Self.load(environment).server)
        for key in ServerSettings.keys {
            #expect(overridden[key] == overrides[key], "\(key)")
            #expect(overridden[key] != defaults[key], "\(key) changed")
        }
    }

    @Test("A bad value names its key", arguments: [
        ("SHOP_SERVER_PORT", "abc", "server.port"), ("SHOP_SERVER_PORT", "70000", "server.port"),
        ("SHOP_SERVER_PORT", "-1", "server.port"), ("SHOP_SERVER_MAX_BODY_BYTES", "100", "server.max_body_bytes"),
        ("SHOP_SERVER_TRUSTED_PROXIES", "10.0.0.1/33", "server.trusted_proxies"),
        ("SHOP_SERVER_TRUSTED_PROXIES", "proxy.internal", "server.trusted_proxies"),
    ])
    func aBadValueThrowsNamingTheKey(_ variable: String, _ value: String, _ key: String) {
        let error = #expect(throws: ConfigError.self) { try Self.load([variable: value]) }
        #expect(error?.key == key)
    }

    @Test func anUnknownKeyOrSectionInTheFileThrowsNamingIt() {
        let key = #expect(throws: ConfigError.self) { try Self.load(json: #"{"server": {"prot": 8080}}"#) }
        #expect(key?.key == "server.prot")
        let section = #expect(throws: ConfigError.self) { try Self.load(json: #"{"srever": {"port": 8080}}"#) }
        #expect(section?.key == "srever.port")
        let shopKey = #expect(throws: ConfigError.self) { try Self.load(json: #"{"cart": {"max_itmes": 1}}"#) }
        #expect(shopKey?.key == "cart.max_itmes")
    }

    @Test func bothHalvesReadTheSameFile() throws {
        let settings = try Self.load(json: #"{"cart": {"max_items": 20}, "server": {"port": "8081"}}"#)
        #expect(settings.shop.cart.maxItems == 20)
        #expect(settings.server.port == 8081)
        #expect(settings.shop.verification.cooldownSeconds == 60)
    }

    @Test func onlyLoopbackHostsCountAsLocal() {
        var server = ServerSettings()
        for host in ["127.0.0.1", "127.0.0.2", "::1", "localhost"] {
            server.host = host
            #expect(server.listensOnLoopbackOnly, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.10"] {
            server.host = host
            #expect(!server.listensOnLoopbackOnly, "\(host)")
        }
    }

    @Test func trustingAProxyInDevelopmentIsWarnedAboutLoudly() {
        var server = ServerSettings()
        #expect(server.developmentWarnings(.development).isEmpty)
        server.trustedProxies = "127.0.0.1"
        #expect(server.developmentWarnings(.development).count == 1)
        #expect(server.developmentWarnings(.development).first?.contains("server.trusted_proxies") == true)
        server.host = "0.0.0.0"
        #expect(server.developmentWarnings(.development).count == 2)
        #expect(server.developmentWarnings(.production).isEmpty)
    }
}
