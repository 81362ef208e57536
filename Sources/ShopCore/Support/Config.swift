import Foundation

/// Every setting of the shop, typed. Defaults live in `Config/shop.json`; each key can be
/// overridden by `SHOP_<SECTION>_<KEY>` in the environment. A bad value stops start-up with a
/// message naming the key.
public struct Config: Sendable {
    public struct Server: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// 0 means two per core.
        public var threads = 0
        public var maxConnections = 1024
        public var maxConnectionsPerIP = 64
        public var maxBodyBytes = 1_048_576
        public var idleTimeoutSeconds = 30
        /// The most a request (headers and body) may take to arrive; an idle keep-alive connection too.
        public var requestTimeoutSeconds = 10
        /// Comma-separated addresses/CIDRs of reverse proxies whose `X-Forwarded-For` is believed.
        public var trustedProxies = ""
    }

    public struct Database: Sendable {
        public var path = "data/shop.sqlite"
        public var migrationsPath = "Migrations"
        public var readers = 4
    }

    public struct Cart: Sendable {
        public var maxItems = 99
    }

    public struct Verification: Sendable {
        public enum Sender: String, Sendable { case log, file, webhook }
        public var sender = Sender.log
        public var filePath = "data/codes.jsonl"
        public var webhookURL = ""
        public var cooldownSeconds = 60
        public var lifetimeSeconds = 300
        public var maxAttempts = 5
        public var dailyLimitPerPhone = 10
        public var dailyLimitPerIP = 100
    }

    public struct Auth: Sendable {
        public var tokenLifetimeDays = 30
        public var maxFailuresPerPhone = 10
        public var maxFailuresPerIP = 100
        public var failureWindowSeconds = 900
        public var pepper = Config.developmentPepper
        public var argon2MemoryKiB = 19_456
        public var argon2Iterations = 2
    }

    public struct Orders: Sendable {
        public var paymentTimeoutMinutes = 30
        public var autoCompleteDays = 15
    }

    public struct Payments: Sendable {
        public var mockpaySecret = Config.developmentMockpaySecret
        public var wechatpayAPIKey = ""
        public var wechatpayMchID = ""
        public var wechatpayAppID = ""
        public var alipayPublicKeyPEM = ""
        public var alipayAppID = ""
        public var alipaySellerID = ""
    }

    public struct App: Sendable {
        public enum Environment: String, Sendable { case development, production }
        public var env = Environment.development
        public var logLevel = Logger.Level.info
    }

    public struct Catalog: Sendable {
        public var importMaxBytes = 50 * 1_048_576
    }

    public var server = Server()
    public var database = Database()
    public var cart = Cart()
    public var verification = Verification()
    public var auth = Auth()
    public var orders = Orders()
    public var payments = Payments()
    public var app = App()
    public var catalog = Catalog()

    public init() {}

    /// Secrets that only development may run with.
    public static let developmentPepper = "dev-pepper-not-for-production"
    public static let developmentMockpaySecret = "dev-mockpay-secret-not-for-production"

    /// The secrets that still hold their development value (empty when production-ready).
    public var developmentSecretsInUse: [String] {
        var keys: [String] = []
        if auth.pepper == Self.developmentPepper { keys.append("auth.pepper") }
        if payments.mockpaySecret == Self.developmentMockpaySecret { keys.append("payments.mockpay_secret") }
        return keys
    }

    /// Why this configuration must not serve production, one line each (empty when it may):
    /// development secrets, and verification codes written to the server log.
    public var productionProblems: [String] {
        var problems = developmentSecretsInUse.map { "\($0) still has its development value" }
        if verification.sender == .log {
            problems.append("verification.sender is log, which writes every code to the server log")
        }
        return problems
    }
}

/// A setting that could not be used, named by its key.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public let key: String
    public let reason: String

    public var description: String { "config \(key): \(reason)" }
}
