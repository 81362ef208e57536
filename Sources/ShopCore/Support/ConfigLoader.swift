import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Config {
    /// Defaults, then the JSON file at `path` (if given), then `SHOP_<SECTION>_<KEY>` variables.
    public static func load(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Config {
        var values: [String: String] = [:]
        if let path {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigError(key: "--config", reason: "cannot read \(path)")
            }
            values = try flatten(data, source: path)
        }
        for key in Config.keys {
            let variable = "SHOP_" + key.replacingOccurrences(of: ".", with: "_").uppercased()
            if let value = environment[variable] { values[key] = value }
        }
        for key in values.keys where !Config.keys.contains(key) {
            throw ConfigError(key: key, reason: "unknown setting")
        }
        var config = Config()
        try config.apply(values)
        if config.server.threads == 0 { config.server.threads = 2 * ProcessInfo.processInfo.activeProcessorCount }
        return config
    }

    /// Every key this version understands, `section.key` in snake_case.
    public static let keys: [String] = [
        "server.host", "server.port", "server.threads", "server.max_connections", "server.max_connections_per_ip",
        "server.max_body_bytes", "server.idle_timeout_seconds",
        "server.request_timeout_seconds", "server.trusted_proxies",
        "database.path", "database.migrations_path", "database.readers",
        "cart.max_items",
        "verification.sender", "verification.file_path", "verification.webhook_url",
        "verification.cooldown_seconds", "verification.lifetime_seconds", "verification.max_attempts",
        "verification.daily_limit_per_phone", "verification.daily_limit_per_ip",
        "auth.token_lifetime_days", "auth.max_failures_per_phone", "auth.max_failures_per_ip",
        "auth.failure_window_seconds", "auth.pepper", "auth.argon2_memory_kib", "auth.argon2_iterations",
        "auth.max_concurrent_hashes",
        "orders.payment_timeout_minutes", "orders.auto_complete_days", "orders.max_unpaid_per_user",
        "payments.mockpay_enabled", "payments.mockpay_secret", "payments.wechatpay_api_key", "payments.wechatpay_mch_id",
        "payments.wechatpay_app_id", "payments.alipay_public_key_pem", "payments.alipay_app_id",
        "payments.alipay_seller_id",
        "app.env", "app.log_level",
        "catalog.import_max_bytes",
        "search.hot_min_searchers", "search.blocked_words",
    ]

    /// `{"server": {"port": 8080}}` → `["server.port": "8080"]`.
    static func flatten(_ data: Data, source: String) throws -> [String: String] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConfigError(key: source, reason: "not a JSON object")
        }
        var values: [String: String] = [:]
        for (section, body) in root {
            guard let entries = body as? [String: Any] else {
                throw ConfigError(key: section, reason: "must be an object of settings")
            }
            for (name, value) in entries {
                let key = "\(section).\(name)"
                switch value {
                case let string as String: values[key] = string
                case let number as NSNumber:
                    values[key] = number.stringValue
                case is NSNull: continue
                default: throw ConfigError(key: key, reason: "must be a string, number or boolean")
                }
            }
        }
        return values
    }

    mutating func apply(_ values: [String: String]) throws {
        let reader = ValueReader(values: values)
        try reader.string("server.host", &server.host)
        try reader.int("server.port", &server.port, 0...65_535)
        try reader.int("server.threads", &server.threads, 0...256)
        try reader.int("server.max_connections", &server.maxConnections, 1...100_000)
        try reader.int("server.max_connections_per_ip", &server.maxConnectionsPerIP, 1...100_000)
        try reader.int("server.max_body_bytes", &server.maxBodyBytes, 1_024...(64 * 1_048_576))
        try reader.int("server.idle_timeout_seconds", &server.idleTimeoutSeconds, 1...3_600)
        try reader.int("server.request_timeout_seconds", &server.requestTimeoutSeconds, 1...3_600)
        try reader.addresses("server.trusted_proxies", &server.trustedProxies)
        try reader.string("database.path", &database.path)
        try reader.string("database.migrations_path", &database.migrationsPath, allowEmpty: true)
        try reader.int("database.readers", &database.readers, 1...64)
        try reader.int("cart.max_items", &cart.maxItems, 1...10_000)
        try reader.choice("verification.sender", &verification.sender)
        try reader.string("verification.file_path", &verification.filePath)
        try reader.string("verification.webhook_url", &verification.webhookURL, allowEmpty: true)
        try reader.int("verification.cooldown_seconds", &verification.cooldownSeconds, 1...86_400)
        try reader.int("verification.lifetime_seconds", &verification.lifetimeSeconds, 10...86_400)
        try reader.int("verification.max_attempts", &verification.maxAttempts, 1...100)
        try reader.int("verification.daily_limit_per_phone", &verification.dailyLimitPerPhone, 1...10_000)
        try reader.int("verification.daily_limit_per_ip", &verification.dailyLimitPerIP, 1...1_000_000)
        try reader.int("auth.token_lifetime_days", &auth.tokenLifetimeDays, 1...3_650)
        try reader.int("auth.max_failures_per_phone", &auth.maxFailuresPerPhone, 1...10_000)
        try reader.int("auth.max_failures_per_ip", &auth.maxFailuresPerIP, 1...1_000_000)
        try reader.int("auth.failure_window_seconds", &auth.failureWindowSeconds, 1...86_400)
        try reader.string("auth.pepper", &auth.pepper)
        try reader.int("auth.argon2_memory_kib", &auth.argon2MemoryKiB, 8...4_194_304)
        try reader.int("auth.argon2_iterations", &auth.argon2Iterations, 1...100)
        try reader.int("auth.max_concurrent_hashes", &auth.maxConcurrentHashes, 0...256)
        try reader.int("orders.payment_timeout_minutes", &orders.paymentTimeoutMinutes, 1...10_080)
        try reader.int("orders.auto_complete_days", &orders.autoCompleteDays, 1...365)
        try reader.int("orders.max_unpaid_per_user", &orders.maxUnpaidPerUser, 1...1_000)
        try reader.choice("payments.mockpay_enabled", &payments.mockpayEnabled)
        try reader.string("payments.mockpay_secret", &payments.mockpaySecret)
        try reader.string("payments.wechatpay_api_key", &payments.wechatpayAPIKey, allowEmpty: true)
        try reader.string("payments.wechatpay_mch_id", &payments.wechatpayMchID, allowEmpty: true)
        try reader.string("payments.wechatpay_app_id", &payments.wechatpayAppID, allowEmpty: true)
        try reader.string("payments.alipay_public_key_pem", &payments.alipayPublicKeyPEM, allowEmpty: true)
        try reader.string("payments.alipay_app_id", &payments.alipayAppID, allowEmpty: true)
        try reader.string("payments.alipay_seller_id", &payments.alipaySellerID, allowEmpty: true)
        try reader.choice("app.env", &app.env)
        try reader.level("app.log_level", &app.logLevel)
        try reader.int("catalog.import_max_bytes", &catalog.importMaxBytes, 1...(4 * 1_073_741_824))
        try reader.int("search.hot_min_searchers", &search.hotMinSearchers, 1...10_000)
        try reader.words("search.blocked_words", &search.blockedWords)
    }
}

/// Reads one typed value per key, with the key in every error.
private struct ValueReader {
    let values: [String: String]

    func string(_ key: String, _ target: inout String, allowEmpty: Bool = false) throws {
        guard let value = values[key] else { return }
        guard allowEmpty || !value.isEmpty else { throw ConfigError(key: key, reason: "must not be empty") }
        target = value
    }

    func int(_ key: String, _ target: inout Int, _ range: ClosedRange<Int>) throws {
        guard let text = values[key] else { return }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ConfigError(key: key, reason: "must be a whole number, got \"\(text)\"")
        }
        guard range.contains(value) else {
            throw ConfigError(key: key, reason: "must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
        target = value
    }

    /// A comma-separated list (`,` or `，`), each entry trimmed and lowercased, empty ones dropped.
    func words(_ key: String, _ target: inout [String]) throws {
        guard let text = values[key] else { return }
        target = text.split(whereSeparator: { $0 == "," || $0 == "，" })
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// A comma-separated list of IPv4/IPv6 addresses or CIDR blocks (`10.0.0.0/8, ::1`), possibly empty.
    func addresses(_ key: String, _ target: inout String) throws {
        guard let text = values[key] else { return }
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var v4 = in_addr()
            var v6 = in6_addr()
            let width = inet_pton(AF_INET, parts[0], &v4) == 1 ? 32 : inet_pton(AF_INET6, parts[0], &v6) == 1 ? 128 : 0
            let prefixIsValid = parts.count == 1
                || (parts.count == 2 && !parts[1].isEmpty && parts[1].utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                    && (Int(parts[1]).map { $0 <= width } ?? false))
            guard width > 0, parts.count <= 2, prefixIsValid else {
                throw ConfigError(key: key, reason: "\"\(entry)\" is not an IP address or CIDR block")
            }
        }
        target = text
    }

    func choice<T: RawRepresentable<String>>(_ key: String, _ target: inout T) throws {
        guard let text = values[key] else { return }
        guard let value = T(rawValue: text) else {
            throw ConfigError(key: key, reason: "unknown value \"\(text)\"")
        }
        target = value
    }

    func level(_ key: String, _ target: inout Logger.Level) throws {
        guard let text = values[key] else { return }
        let names: [String: Logger.Level] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
        guard let value = names[text.lowercased()] else {
            throw ConfigError(key: key, reason: "must be debug, info, warning or error")
        }
        target = value
    }
}
