import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Config {
    /// Every setting this version understands, each declared once: its key, where it lives in
    /// `Config` (whose initial values are the defaults) and how its text is read and checked. The
    /// key list, the environment variables and the loader all come from this table.
    public static let settings: [Setting] = [
        .string("server.host", \.server.host),
        .int("server.port", \.server.port, 0...65_535),
        .int("server.threads", \.server.threads, 0...256),
        .int("server.max_connections", \.server.maxConnections, 1...100_000),
        .int("server.max_connections_per_ip", \.server.maxConnectionsPerIP, 1...100_000),
        .int("server.max_body_bytes", \.server.maxBodyBytes, 1_024...(64 * 1_048_576)),
        .int("server.idle_timeout_seconds", \.server.idleTimeoutSeconds, 1...3_600),
        .int("server.request_timeout_seconds", \.server.requestTimeoutSeconds, 1...3_600),
        .addresses("server.trusted_proxies", \.server.trustedProxies),
        .origins("server.cors_origins", \.server.corsOrigins),
        .string("server.metrics_host", \.server.metricsHost),
        .int("server.metrics_port", \.server.metricsPort, 0...65_535),
        .int("server.drain_seconds", \.server.drainSeconds, 0...300),
        .databaseURL("database.url", \.database.url),
        .databaseURL("database.read_url", \.database.readURL),
        .int("database.pool_size", \.database.poolSize, 1...1_000),
        .int("database.pool_timeout_seconds", \.database.poolTimeoutSeconds, 1...300),
        .string("database.path", \.database.path),
        .string("database.migrations_path", \.database.migrationsPath, allowEmpty: true),
        .int("database.readers", \.database.readers, 1...64),
        .int("cart.max_items", \.cart.maxItems, 1...10_000),
        .choice("verification.sender", \.verification.sender),
        .string("verification.file_path", \.verification.filePath),
        .string("verification.webhook_url", \.verification.webhookURL, allowEmpty: true),
        .int("verification.cooldown_seconds", \.verification.cooldownSeconds, 1...86_400),
        .int("verification.lifetime_seconds", \.verification.lifetimeSeconds, 10...86_400),
        .int("verification.max_attempts", \.verification.maxAttempts, 1...100),
        .int("verification.daily_limit_per_phone", \.verification.dailyLimitPerPhone, 1...10_000),
        .int("verification.daily_limit_per_ip", \.verification.dailyLimitPerIP, 1...1_000_000),
        .int("auth.token_lifetime_days", \.auth.tokenLifetimeDays, 1...3_650),
        .int("auth.max_failures_per_phone", \.auth.maxFailuresPerPhone, 1...10_000),
        .int("auth.max_failures_per_ip", \.auth.maxFailuresPerIP, 1...1_000_000),
        .int("auth.failure_window_seconds", \.auth.failureWindowSeconds, 1...86_400),
        .string("auth.pepper", \.auth.pepper),
        .int("auth.argon2_memory_kib", \.auth.argon2MemoryKiB, 8...4_194_304),
        .int("auth.argon2_iterations", \.auth.argon2Iterations, 1...100),
        .int("auth.max_concurrent_hashes", \.auth.maxConcurrentHashes, 0...256),
        .int("auth.hash_queue", \.auth.hashQueue, 0...100_000),
        .int("admin.token_lifetime_hours", \.admin.tokenLifetimeHours, 1...720),
        .int("orders.payment_timeout_minutes", \.orders.paymentTimeoutMinutes, 1...10_080),
        .int("orders.auto_complete_days", \.orders.autoCompleteDays, 1...365),
        .int("orders.max_unpaid_per_user", \.orders.maxUnpaidPerUser, 1...100_000),
        .timeOfDay("orders.same_day_cutoff", \.orders.sameDayCutoff),
        .int("orders.max_days_ahead", \.orders.maxDaysAhead, 0...365),
        .days("orders.closed_dates", \.orders.closedDates),
        .int("coupons.max_failures_per_buyer", \.coupons.maxFailuresPerBuyer, 1...10_000),
        .int("coupons.max_failures_per_ip", \.coupons.maxFailuresPerIP, 1...1_000_000),
        .int("coupons.failure_window_seconds", \.coupons.failureWindowSeconds, 1...86_400),
        .choice("payments.mockpay_enabled", \.payments.mockpayEnabled),
        .string("payments.mockpay_secret", \.payments.mockpaySecret),
        .string("payments.wechatpay_api_key", \.payments.wechatpayAPIKey, allowEmpty: true),
        .string("payments.wechatpay_mch_id", \.payments.wechatpayMchID, allowEmpty: true),
        .string("payments.wechatpay_app_id", \.payments.wechatpayAppID, allowEmpty: true),
        .string("payments.wechatpay_client_cert_pem", \.payments.wechatpayClientCertPEM, allowEmpty: true),
        .string("payments.wechatpay_client_key_pem", \.payments.wechatpayClientKeyPEM, allowEmpty: true),
        .string("payments.alipay_public_key_pem", \.payments.alipayPublicKeyPEM, allowEmpty: true),
        .string("payments.alipay_app_id", \.payments.alipayAppID, allowEmpty: true),
        .string("payments.alipay_seller_id", \.payments.alipaySellerID, allowEmpty: true),
        .string("payments.alipay_private_key_pem", \.payments.alipayPrivateKeyPEM, allowEmpty: true),
        .string("payments.alipay_gateway_url", \.payments.alipayGatewayURL),
        .string("payments.wechatpay_gateway_url", \.payments.wechatpayGatewayURL),
        .string("payments.public_base_url", \.payments.publicBaseURL, allowEmpty: true),
        .int("payments.provider_timeout_seconds", \.payments.providerTimeoutSeconds, 1...120),
        .int("payments.max_concurrent_calls", \.payments.maxConcurrentCalls, 1...1_024),
        .int("payments.breaker_failures", \.payments.breakerFailures, 1...1_000),
        .int("payments.breaker_seconds", \.payments.breakerSeconds, 1...3_600),
        .int("payments.max_attempts_per_order", \.payments.maxAttemptsPerOrder, 1...1_000),
        .choice("app.env", \.app.env),
        .level("app.log_level", \.app.logLevel),
        .choice("app.log_format", \.app.logFormat),
        .string("app.public_url", \.app.publicURL, allowEmpty: true),
        .timeZone("app.timezone", \.app.timezone),
        .int("catalog.import_max_bytes", \.catalog.importMaxBytes, 1...(4 * 1_073_741_824)),
        .int("search.hot_min_searchers", \.search.hotMinSearchers, 1...10_000),
        .words("search.blocked_words", \.search.blockedWords),
        .int("search.max_per_minute_per_ip", \.search.maxPerMinutePerIP, 1...1_000_000),
        .string("media.path", \.media.path),
        .int("media.max_upload_bytes", \.media.maxUploadBytes, 1_024...(64 * 1_048_576)),
        .int("media.max_pixels", \.media.maxPixels, 1...1_000_000_000),
        .int("media.max_uploads_per_minute", \.media.maxUploadsPerMinute, 1...10_000),
    ]

    /// Every key this version understands, `section.key` in snake_case.
    public static let keys: [String] = settings.map(\.key)

    /// One setting: its key, and how its text becomes the typed value in `Config` and back.
    public struct Setting: Sendable {
        /// `section.key` in snake_case, as in `Config/shop.json`.
        public let key: String
        private let parse: @Sendable (String, inout Config) throws(Invalid) -> Void
        private let render: @Sendable (Config) -> String

        /// Why a text is not a value of this setting (the key is added by `read`).
        struct Invalid: Error {
            let reason: String
            init(_ reason: String) { self.reason = reason }
        }

        init<Value>(_ key: String, _ path: WritableKeyPath<Config, Value> & Sendable,
                    parse: @escaping @Sendable (String) throws(Invalid) -> Value,
                    render: @escaping @Sendable (Value) -> String) {
            self.key = key
            self.parse = { (text, config) throws(Invalid) in config[keyPath: path] = try parse(text) }
            self.render = { config in render(config[keyPath: path]) }
        }

        /// `SHOP_<SECTION>_<KEY>`: the environment variable that overrides this setting.
        public var environmentVariable: String {
            "SHOP_" + key.replacingOccurrences(of: ".", with: "_").uppercased()
        }

        /// Sets this setting in `config` from `text`, or throws naming the key.
        public func read(_ text: String, into config: inout Config) throws {
            do {
                try parse(text, &config)
            } catch {
                throw ConfigError(key: key, reason: error.reason)
            }
        }

        /// This setting's value in `config` as text, the way the file and the environment spell it.
        public func text(in config: Config) -> String { render(config) }
    }
}

extension Config.Setting {
    /// Text, refused when empty unless `allowEmpty`.
    static func string(_ key: String, _ path: WritableKeyPath<Config, String> & Sendable, allowEmpty: Bool = false) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            guard allowEmpty || !text.isEmpty else { throw Invalid("must not be empty") }
            return text
        }, render: { $0 })
    }

    /// Empty, `sqlite:PATH` or `postgresql://…`.
    static func databaseURL(_ key: String, _ path: WritableKeyPath<Config, String> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            guard text.isEmpty || DatabaseLocation(url: text) != nil else {
                throw Invalid("must be sqlite:PATH or postgresql://user@host:port/database, got \"\(text.prefix(40))\"")
            }
            return text
        }, render: { $0 })
    }

    /// A whole number within `range`.
    static func int(_ key: String, _ path: WritableKeyPath<Config, Int> & Sendable, _ range: ClosedRange<Int>) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw Invalid("must be a whole number, got \"\(text)\"")
            }
            guard range.contains(value) else {
                throw Invalid("must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
            }
            return value
        }, render: { "\($0)" })
    }

    /// One of an enum's raw values.
    static func choice<Value: RawRepresentable<String> & Sendable>(_ key: String, _ path: WritableKeyPath<Config, Value> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            guard let value = Value(rawValue: text) else { throw Invalid("unknown value \"\(text)\"") }
            return value
        }, render: { $0.rawValue })
    }

    /// A time of day `HH:MM` (24-hour, `00:00` to `24:00`), kept as minutes after midnight.
    static func timeOfDay(_ key: String, _ path: WritableKeyPath<Config, Int> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
                  let hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60, hour * 60 + minute <= 24 * 60 else {
                throw Invalid("must be a time of day written HH:MM (24-hour, e.g. 14:00), got \"\(text.prefix(20))\"")
            }
            return hour * 60 + minute
        }, render: { String(format: "%02d:%02d", $0 / 60, $0 % 60) })
    }

    /// A comma-separated list of days `YYYY-MM-DD`, possibly empty; sorted, each once.
    static func days(_ key: String, _ path: WritableKeyPath<Config, [CalendarDay]> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            var days: Set<CalendarDay> = []
            for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
                guard let day = CalendarDay(entry) else { throw Invalid("\"\(entry.prefix(20))\" is not a day written YYYY-MM-DD") }
                days.insert(day)
            }
            return days.sorted()
        }, render: { $0.map(\.description).joined(separator: ",") })
    }

    /// An IANA time zone name (`Asia/Shanghai`, `UTC`) this machine knows.
    static func timeZone(_ key: String, _ path: WritableKeyPath<Config, String> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            let name = text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.count <= 64, TimeZone(identifier: name) != nil else {
                throw Invalid("unknown time zone \"\(text.prefix(40))\": use an IANA name such as Asia/Shanghai or UTC")
            }
            return name
        }, render: { $0 })
    }

    /// A log level by name, in any case.
    static func level(_ key: String, _ path: WritableKeyPath<Config, Logger.Level> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            let names: [String: Logger.Level] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
            guard let value = names[text.lowercased()] else { throw Invalid("must be debug, info, warning or error") }
            return value
        }, render: { "\($0)" })
    }

    /// A comma-separated list (`,` or `，`), each entry trimmed and lowercased, empty ones dropped.
    static func words(_ key: String, _ path: WritableKeyPath<Config, [String]> & Sendable) -> Self {
        Self(key, path, parse: { text in
            text.split(whereSeparator: { $0 == "," || $0 == "，" })
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
                .filter { !$0.isEmpty }
        }, render: { $0.joined(separator: ",") })
    }

    /// A comma-separated list of IPv4/IPv6 addresses or CIDR blocks (`10.0.0.0/8, ::1`), possibly
    /// empty, kept as written.
    static func addresses(_ key: String, _ path: WritableKeyPath<Config, String> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
                let parts = entry.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                var v4 = in_addr()
                var v6 = in6_addr()
                let width = inet_pton(AF_INET, parts[0], &v4) == 1 ? 32 : inet_pton(AF_INET6, parts[0], &v6) == 1 ? 128 : 0
                let prefixIsValid = parts.count == 1
                    || (parts.count == 2 && !parts[1].isEmpty && parts[1].utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                        && (Int(parts[1]).map { $0 <= width } ?? false))
                guard width > 0, parts.count <= 2, prefixIsValid else {
                    throw Invalid("\"\(entry)\" is not an IP address or CIDR block")
                }
            }
            return text
        }, render: { $0 })
    }

    /// A comma-separated list of web origins, `http(s)://host[:port]` as browsers send them in
    /// `Origin` (lowercased, a default port and a trailing `/` dropped), or `*` for any; possibly empty.
    static func origins(_ key: String, _ path: WritableKeyPath<Config, [String]> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            var origins: [String] = []
            for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
                guard let origin = Self.webOrigin(entry) else {
                    throw Invalid("\"\(entry.prefix(80))\" is not an origin like https://shop.example or http://127.0.0.1:3000, nor *")
                }
                if !origins.contains(origin) { origins.append(origin) }
            }
            return origins
        }, render: { $0.joined(separator: ",") })
    }

    /// `entry` as a browser writes it in `Origin`, or `*`; nil when it has a path, query,
    /// user, a scheme other than http(s), or a host that is not a DNS name or IP address.
    static func webOrigin(_ entry: String) -> String? {
        if entry == "*" { return "*" }
        var text = entry.lowercased()
        if text.hasSuffix("/") { text.removeLast() }
        let scheme: String
        if text.hasPrefix("https://") { scheme = "https" } else if text.hasPrefix("http://") { scheme = "http" } else { return nil }
        let authority = text.dropFirst(scheme.count + 3)
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, String(authority[authority.index(after: authority.startIndex)..<close]), &v6) == 1 else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty, host.utf8.count <= 253, !host.hasPrefix("."), !host.hasPrefix("-"),
                  host.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2e || $0 == 0x2d })
            else { return nil }
        }
        guard let port else { return "\(scheme)://\(host)" }
        guard !port.isEmpty, port.utf8.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let number = Int(port), (1...65_535).contains(number) else { return nil }
        let isDefault = (scheme == "http" && number == 80) || (scheme == "https" && number == 443)
        return isDefault ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(number)"
    }
}
