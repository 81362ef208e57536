import Foundation
import ShopCore

/// The HTTP server's settings (`server.*` of the settings file): listening, connection limits,
/// proxies, CORS, the metrics listener, draining. ShopCore serves no HTTP, so its `Config` holds
/// none of them; they are read from the same file and `SHOP_SERVER_*` variables as `Config`.
public struct ServerSettings: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// 0 means two per core.
    public var threads = 0
    public var maxConnections = 1024
    public var maxConnectionsPerIP = 64
    public var maxBodyBytes = 1_048_576
    public var idleTimeoutSeconds = 30
    /// The most a request (headers and body) may take to arrive; an idle keep-alive connection too,
    /// but for a trusted proxy's (`trustedProxies`), which the proxy closes itself.
    public var requestTimeoutSeconds = 10
    /// Comma-separated addresses/CIDRs of reverse proxies whose `X-Forwarded-For` is believed.
    public var trustedProxies = ""
    /// Origins (`https://shop.example`) whose pages may call the API from a browser (CORS);
    /// `*` for any, only when written out. Empty: no CORS headers at all.
    public var corsOrigins: [String] = []
    /// Where `GET /metrics` (Prometheus text) is served: loopback by default, apart from the API.
    public var metricsHost = "127.0.0.1"
    /// 0 turns the metrics endpoint off.
    public var metricsPort = 9464
    /// After SIGTERM/SIGINT, how long `/readyz` says 503 `draining` while requests are still
    /// served, so a load balancer notices before the server stops accepting.
    public var drainSeconds = 5

    public init() {}

    /// Every `server.*` setting, declared once like `Config.settings`.
    public static let settings: [Setting<ServerSettings>] = [
        .string("server.host", \.host),
        .int("server.port", \.port, 0...65_535),
        .int("server.threads", \.threads, 0...256),
        .int("server.max_connections", \.maxConnections, 1...100_000),
        .int("server.max_connections_per_ip", \.maxConnectionsPerIP, 1...100_000),
        .int("server.max_body_bytes", \.maxBodyBytes, 1_024...(64 * 1_048_576)),
        .int("server.idle_timeout_seconds", \.idleTimeoutSeconds, 1...3_600),
        .int("server.request_timeout_seconds", \.requestTimeoutSeconds, 1...3_600),
        .addresses("server.trusted_proxies", \.trustedProxies),
        .origins("server.cors_origins", \.corsOrigins),
        .string("server.metrics_host", \.metricsHost),
        .int("server.metrics_port", \.metricsPort, 0...65_535),
        .int("server.drain_seconds", \.drainSeconds, 0...300),
    ]

    public static let keys: [String] = settings.map(\.key)

    /// The server's settings from `source`, an unknown `server.*` key refused; 0 threads becomes
    /// two per core.
    public init(_ source: SettingsSource) throws {
        try source.refuseUnknownKeys(Self.keys, inSections: ["server"])
        self.init()
        try source.read(Self.settings, into: &self)
        if threads == 0 { threads = 2 * ProcessInfo.processInfo.activeProcessorCount }
    }

    /// Whether `host` is reachable only from this machine.
    public var listensOnLoopbackOnly: Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
    }

    /// What `shop serve` warns about at start in development, one line each naming its key: a
    /// server others can reach, or one behind a proxy (`server.trusted_proxies`), which is how
    /// development-only routes and secrets end up facing the network.
    public func developmentWarnings(_ environment: Config.App.Environment) -> [String] {
        guard environment == .development else { return [] }
        var warnings: [String] = []
        if !listensOnLoopbackOnly {
            warnings.append("development server listening on a non-loopback address (server.host \(host)): "
                            + "development secrets and the log code sender are reachable from the network")
        }
        if !trustedProxies.trimmingCharacters(in: .whitespaces).isEmpty {
            warnings.append("DEVELOPMENT MODE BEHIND A PROXY (server.trusted_proxies is set): development secrets, mockpay "
                            + "and the log code sender face whoever reaches the proxy; development-only routes answer "
                            + "only requests from this machine that no proxy forwarded. Use app.env=production for a shop behind a proxy.")
        }
        return warnings
    }
}

/// Everything the settings file holds: the shop's settings and the HTTP server's.
public struct ShopSettings: Sendable {
    public var shop: Config
    public var server: ServerSettings

    /// Defaults, then the JSON file at `path` (if given), then `SHOP_<SECTION>_<KEY>` variables; a
    /// key of the file that neither table knows is refused, naming it.
    public static func load(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ShopSettings {
        let source = try SettingsSource(path: path, environment: environment)
        try source.refuseUnknownKeys(keys)
        return ShopSettings(shop: try Config(source), server: try ServerSettings(source))
    }

    /// Every key of the settings file.
    public static let keys = Config.keys + ServerSettings.keys
}
