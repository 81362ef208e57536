import Foundation
import ShopCore
import Testing

@Suite("Config")
struct ConfigTests {
    /// The repository root, found from this file: Tests/ShopCoreTests/SupportTests/ConfigTests.swift.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shopJSON = repository.appendingPathComponent("Config/shop.json").path

    /// Every setting as text, by key: what `Config.load` produced, compared key by key.
    static func settings(_ c: Config) -> [String: String] {
        Dictionary(uniqueKeysWithValues: Config.settings.map { ($0.key, $0.text(in: c)) })
    }

    /// A valid value for every key that differs from its default.
    static let overrides: [String: String] = [
        "database.url": "postgresql://shop@db.example:5432/shop", "database.read_url": "postgresql://shop@standby.example:5432/shop",
        "database.pool_size": "20", "database.pool_timeout_seconds": "2", "database.write_workers": "3", "database.path": "/tmp/x.sqlite", "database.migrations_path": "/opt/migrations", "database.readers": "2", "database.sqlite_mmap_mb": "0",
        "cart.max_items": "50",
        "verification.sender": "file", "verification.file_path": "/tmp/codes.jsonl",
        "verification.webhook_url": "https://sms.example/send", "verification.cooldown_seconds": "30",
        "verification.lifetime_seconds": "120", "verification.max_attempts": "3",
        "verification.daily_limit_per_phone": "4", "verification.daily_limit_per_ip": "40",
        "auth.token_lifetime_days": "7", "auth.max_failures_per_phone": "6", "auth.max_failures_per_ip": "60",
        "auth.failure_window_seconds": "600", "auth.pepper": "prod-pepper", "auth.argon2_memory_kib": "65536",
        "auth.argon2_iterations": "3", "auth.max_concurrent_hashes": "2", "auth.hash_queue": "9", "auth.session_cache_ms": "250", "admin.token_lifetime_hours": "24",
        "orders.payment_timeout_minutes": "15", "orders.auto_complete_days": "10", "orders.max_unpaid_per_user": "8",
        "orders.same_day_cutoff": "11:30", "orders.max_days_ahead": "14", "orders.closed_dates": "2026-12-25,2027-01-01",
        "orders.slot_capacity": "12", "orders.peak_dates": "08-22", "orders.peak_fee_cents": "3000",
        "orders.after_sale_hours": "72",
        "coupons.max_failures_per_buyer": "4", "coupons.max_failures_per_ip": "12", "coupons.failure_window_seconds": "300",
        "payments.mockpay_enabled": "false", "payments.mockpay_secret": "prod-mockpay", "payments.wechatpay_api_key": "wk", "payments.wechatpay_mch_id": "mch",
        "payments.wechatpay_app_id": "wxapp", "payments.alipay_public_key_pem": "-----BEGIN PUBLIC KEY-----",
        "payments.wechatpay_client_cert_pem": "-----BEGIN CERTIFICATE-----", "payments.wechatpay_client_key_pem": "-----BEGIN PRIVATE KEY-----",
        "payments.alipay_app_id": "aliapp", "payments.alipay_seller_id": "seller",
        "payments.alipay_private_key_pem": "-----BEGIN PRIVATE KEY-----", "payments.alipay_gateway_url": "https://alipay.example/gateway.do",
        "payments.wechatpay_gateway_url": "https://wechat.example", "payments.public_base_url": "https://shop.example",
        "payments.provider_timeout_seconds": "3", "payments.max_concurrent_calls": "7", "payments.breaker_failures": "4",
        "payments.breaker_seconds": "11", "payments.max_attempts_per_order": "6",
        "app.env": "production", "app.log_level": "debug", "app.log_format": "json", "app.public_url": "https://floral.example.cn",
        "app.timezone": "UTC", "app.name": "Floral Garden", "app.service_contact": "微信 floral-kefu",
        "catalog.import_max_bytes": "1000",
        "search.hot_min_searchers": "4", "search.blocked_words": "spam,广告", "search.max_per_minute_per_ip": "30", "search.synonyms_path": "/etc/shop/synonyms.txt",
        "media.path": "/var/lib/shop/media",
        "media.max_upload_bytes": "2097152",
        "media.max_pixels": "12000000",
        "media.max_uploads_per_minute": "3",
        "notifications.sender": "webhook", "notifications.file_path": "/tmp/notices.jsonl",
        "notifications.webhook_url": "https://sms.example/notices", "notifications.claim_seconds": "20",
    ]

    static func variable(_ key: String) -> String {
        "SHOP_" + key.replacingOccurrences(of: ".", with: "_").uppercased()
    }

    @Test func eachSettingIsOverriddenByItsOwnVariable() {
        for setting in Config.settings {
            #expect(setting.environmentVariable == Self.variable(setting.key))
        }
    }

    @Test func eachSettingReadsIntoItsOwnFieldOnly() throws {
        let defaults = Self.settings(Config())
        for setting in Config.settings {
            var config = Config()
            try setting.read(try #require(Self.overrides[setting.key]), into: &config)
            let changed = Self.settings(config).filter { defaults[$0.key] != $0.value }.map(\.key)
            #expect(changed == [setting.key])
        }
    }

    /// Writes `json` to a config file in a fresh temporary directory and loads it.
    func load(json: String, environment: [String: String] = [:]) throws -> Config {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("floral-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("shop.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return try Config.load(path: path, environment: environment)
    }

    @Test func theShippedFileGivesTheDocumentedDefaults() throws {
        let config = try Config.load(path: Self.shopJSON, environment: [:])
        #expect(config.database.path == "data/shop.sqlite")
        #expect(config.database.migrationsPath == "")
        #expect(config.database.readers == 4)
        #expect(config.database.sqliteMmapMB == 256)
        #expect(config.cart.maxItems == 99)
        #expect(config.verification.sender == .log)
        #expect(config.verification.cooldownSeconds == 60)
        #expect(config.verification.lifetimeSeconds == 300)
        #expect(config.verification.maxAttempts == 5)
        #expect(config.verification.dailyLimitPerPhone == 10)
        #expect(config.verification.dailyLimitPerIP == 100)
        #expect(config.auth.tokenLifetimeDays == 30)
        #expect(config.auth.argon2MemoryKiB >= 19_456)
        #expect(config.auth.argon2Iterations >= 2)
        #expect(config.orders.paymentTimeoutMinutes == 30)
        #expect(config.orders.autoCompleteDays == 15)
        #expect(config.orders.maxUnpaidPerUser == 5)
        #expect(config.app.env == .development)
        #expect(config.app.logLevel == .info)
        #expect(config.catalog.importMaxBytes == 50 * 1_048_576)
        #expect(config.search.hotMinSearchers == 3)
        #expect(config.search.blockedWords == ["加微信", "代购", "微信", "qq", "薇信", "刷单"])
        #expect(config.media.path == "data/media")
    }

    @Test func theShippedFileAgreesWithTheDefaultsInCode() throws {
        let fromFile = Self.settings(try Config.load(path: Self.shopJSON, environment: [:]))
        let fromCode = Self.settings(try Config.load(path: nil, environment: [:]))
        for key in Config.keys {
            #expect(fromFile[key] == fromCode[key], "\(key)")
        }
    }

    /// Its own sections' keys; `server.*` is ShopAPI's (`ServerSettings`, tested there).
    @Test func theShippedFileListsExactlyTheKnownKeys() throws {
        let data = try #require(FileManager.default.contents(atPath: Self.shopJSON))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        let fileKeys = Set(root.filter { $0.key != "server" }.flatMap { section, entries in entries.keys.map { "\(section).\($0)" } })
        #expect(fileKeys.subtracting(Config.keys).sorted() == [], "in the file but unknown to Config")
        #expect(Set(Config.keys).subtracting(fileKeys).sorted() == [], "known to Config but missing from the file")
        #expect(Config.keys.count == Set(Config.keys).count, "no key listed twice")
    }

    @Test func everyKeyCanBeOverriddenFromTheEnvironment() throws {
        #expect(Set(Self.overrides.keys) == Set(Config.keys), "this test covers every key")
        let defaults = Self.settings(try Config.load(path: Self.shopJSON, environment: [:]))
        let environment = Dictionary(uniqueKeysWithValues: Self.overrides.map { (Self.variable($0.key), $0.value) })
        let overridden = Self.settings(try Config.load(path: Self.shopJSON, environment: environment))
        for key in Config.keys {
            #expect(overridden[key] == Self.overrides[key], "\(key)")
            #expect(overridden[key] != defaults[key], "\(key) changed")
        }
    }

    @Test func aSettingFromTheEnvironmentWinsOverTheShippedFile() throws {
        let config = try Config.load(path: Self.shopJSON, environment: ["SHOP_DATABASE_POOL_SIZE": "9"])
        #expect(config.database.poolSize == 9)
        #expect(config.cart.maxItems == 99)
    }

    @Test func blockedWordsAreACommaSeparatedListTrimmedAndLowercased() throws {
        let config = try Config.load(path: Self.shopJSON, environment: ["SHOP_SEARCH_BLOCKED_WORDS": " Spam ，广告,, VX "])
        #expect(config.search.blockedWords == ["spam", "广告", "vx"])
        let none = try Config.load(path: Self.shopJSON, environment: ["SHOP_SEARCH_BLOCKED_WORDS": ""])
        #expect(none.search.blockedWords.isEmpty)
    }

    @Test("A value that is not a number names its key", arguments: ["abc", "", "80.5", "8080x"])
    func aNonNumericCountThrowsNamingTheKey(_ value: String) {
        let error = #expect(throws: ConfigError.self) {
            try Config.load(path: Self.shopJSON, environment: ["SHOP_CART_MAX_ITEMS": value])
        }
        #expect(error?.key == "cart.max_items")
        #expect(error?.description.contains("cart.max_items") == true)
    }

    @Test("An out-of-range value names its key", arguments: [
        ("SHOP_CART_MAX_ITEMS", "0", "cart.max_items"), ("SHOP_DATABASE_READERS", "65", "database.readers"),
        ("SHOP_MEDIA_MAX_UPLOAD_BYTES", "100", "media.max_upload_bytes"),
        ("SHOP_APP_ENV", "staging", "app.env"), ("SHOP_APP_LOG_LEVEL", "loud", "app.log_level"),
        ("SHOP_VERIFICATION_SENDER", "pigeon", "verification.sender"), ("SHOP_AUTH_PEPPER", "", "auth.pepper"),
        ("SHOP_APP_SERVICE_CONTACT", String(repeating: "9", count: 101), "app.service_contact"),
        ("SHOP_APP_SERVICE_CONTACT", "微信\nfloral", "app.service_contact"), ("SHOP_APP_NAME", " ", "app.name"),
    ])
    func anOutOfRangeValueThrowsNamingTheKey(_ variable: String, _ value: String, _ key: String) {
        let error = #expect(throws: ConfigError.self) {
            try Config.load(path: Self.shopJSON, environment: [variable: value])
        }
        #expect(error?.key == key)
    }

    @Test func environmentVariablesThatAreNotSettingsAreIgnored() throws {
        let config = try Config.load(path: Self.shopJSON, environment: ["SHOP_CART_MAX_ITMES": "1", "PATH": "/bin"])
        #expect(config.cart.maxItems == 99)
    }

    /// A section of its own; the whole file's unknown keys are `ShopSettings.load`'s (ShopAPI).
    @Test func anUnknownKeyInTheFileThrowsNamingIt() {
        let error = #expect(throws: ConfigError.self) { try load(json: #"{"cart": {"max_itmes": 20}}"#) }
        #expect(error?.key == "cart.max_itmes")
    }

    @Test func aMalformedFileThrows() {
        #expect(throws: ConfigError.self) { try load(json: "{ not json") }
        #expect(throws: ConfigError.self) { try load(json: #"{"server": 8080}"#) }
        #expect(throws: ConfigError.self) { try load(json: #"{"server": {"port": [8080]}}"#) }
        let missing = #expect(throws: ConfigError.self) { try Config.load(path: "/nonexistent/shop.json", environment: [:]) }
        #expect(missing?.key == "--config")
    }

    @Test func aPartialFileKeepsTheOtherDefaults() throws {
        let config = try load(json: #"{"cart": {"max_items": 20}, "database": {"pool_size": "8"}}"#)
        #expect(config.cart.maxItems == 20)
        #expect(config.database.poolSize == 8)
        #expect(config.verification.cooldownSeconds == 60)
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        let config = try load(json: #"{"cart": {"max_items": 20}}"#, environment: ["SHOP_CART_MAX_ITEMS": "30"])
        #expect(config.cart.maxItems == 30)
    }

    @Test func developmentSecretsAreListedUntilBothAreOverridden() throws {
        let defaults = try Config.load(path: Self.shopJSON, environment: [:])
        #expect(defaults.developmentSecretsInUse == ["auth.pepper", "payments.mockpay_secret"])
        let onlyPepper = try Config.load(path: Self.shopJSON, environment: ["SHOP_AUTH_PEPPER": "p"])
        #expect(onlyPepper.developmentSecretsInUse == ["payments.mockpay_secret"])
        let both = try Config.load(path: Self.shopJSON,
                                   environment: ["SHOP_AUTH_PEPPER": "p", "SHOP_PAYMENTS_MOCKPAY_SECRET": "m"])
        #expect(both.developmentSecretsInUse == [])
    }

    @Test func productionRefusesDevelopmentSecretsAndCodesInTheLog() throws {
        var config = Config()
        #expect(config.productionProblems.count == 4)
        config.auth.pepper = String(repeating: "p", count: 32)
        config.payments.mockpaySecret = String(repeating: "m", count: 32)
        config.verification.webhookURL = "https://sms.example.com/send"
        #expect(config.productionProblems == ["verification.sender is log, which writes every code to the server log"])
        config.verification.sender = .file
        #expect(config.productionProblems == ["verification.sender is file, which writes every code to a local file"])
        config.verification.sender = .webhook
        #expect(config.productionProblems.isEmpty)
        config.verification.webhookURL = ""
        #expect(config.productionProblems == ["verification.webhook_url must be an https:// URL"])
    }

    @Test func productionRefusesShortSecretsAndAPlainHTTPGatewayNamingEachKey() throws {
        var config = Config()
        config.verification.sender = .webhook
        config.verification.webhookURL = "http://sms.example.com/send"
        config.auth.pepper = String(repeating: "p", count: 31)
        config.payments.mockpaySecret = "short"
        #expect(config.productionProblems == [
            "auth.pepper is shorter than 32 bytes",
            "payments.mockpay_secret is shorter than 32 bytes",
            "verification.webhook_url must be an https:// URL",
        ])
    }

    @Test func productionRefusesAPaymentProviderConfiguredInPart() throws {
        var config = Config()
        config.verification.sender = .webhook
        config.verification.webhookURL = "https://sms.example.com/send"
        config.auth.pepper = String(repeating: "p", count: 32)
        config.payments.mockpaySecret = String(repeating: "m", count: 32)
        config.payments.publicBaseURL = "https://shop.example"
        config.payments.wechatpayAPIKey = "key"
        config.payments.alipayPublicKeyPEM = "pem"
        config.payments.alipayAppID = "app"
        #expect(config.productionProblems == [
            "WeChat Pay is half-configured: payments.wechatpay_mch_id, payments.wechatpay_app_id, "
                + "payments.wechatpay_client_cert_pem, payments.wechatpay_client_key_pem must be set too",
            "Alipay is half-configured: payments.alipay_private_key_pem must be set too",
        ])
        config.payments.wechatpayMchID = "mch"
        config.payments.wechatpayAppID = "wx"
        config.payments.alipayPrivateKeyPEM = "private"
        // WeChat's refund API is mutual TLS: without the client certificate no refund could be made
        #expect(config.productionProblems == [
            "WeChat Pay is half-configured: payments.wechatpay_client_cert_pem, payments.wechatpay_client_key_pem must be set too",
        ])
        config.payments.wechatpayClientCertPEM = "cert"
        config.payments.wechatpayClientKeyPEM = "key"
        #expect(config.productionProblems.isEmpty)
        config.payments.publicBaseURL = "http://shop.example"
        #expect(config.productionProblems == [
            "payments.public_base_url must be the shop's https:// address when a payment provider is configured",
        ])
    }

    @Test func mockpayIsOffInProductionUnlessSwitchedOnOnPurpose() throws {
        #expect(try Config.load(path: Self.shopJSON, environment: [:]).isMockpayEnabled)
        let production = try Config.load(path: Self.shopJSON, environment: ["SHOP_APP_ENV": "production"])
        #expect(!production.isMockpayEnabled)
        let onPurpose = try Config.load(path: Self.shopJSON, environment: ["SHOP_APP_ENV": "production",
                                                                            "SHOP_PAYMENTS_MOCKPAY_ENABLED": "true"])
        #expect(onPurpose.isMockpayEnabled)
        let off = try Config.load(path: Self.shopJSON, environment: ["SHOP_PAYMENTS_MOCKPAY_ENABLED": "false"])
        #expect(!off.isMockpayEnabled)
        #expect(throws: ConfigError.self) {
            try Config.load(path: Self.shopJSON, environment: ["SHOP_PAYMENTS_MOCKPAY_ENABLED": "yes"])
        }
    }
}

@Suite("app.public_url")
struct PublicURLConfigTests {
    @Test func aTrailingSlashIsDroppedAndEmptyMeansTheRequestsHost() throws {
        var config = Config()
        #expect(try config.publicBaseURL() == nil)
        config.app.publicURL = "https://shop.example.com/"
        #expect(try config.publicBaseURL() == "https://shop.example.com")
    }

    @Test func productionRefusesToRunWithoutItNamingTheKey() throws {
        var config = Config()
        config.app.env = .production
        let error = #expect(throws: ConfigError.self) { try config.publicBaseURL() }
        #expect(error?.key == "app.public_url")
        config.app.publicURL = "https://shop.example.com"
        #expect(try config.publicBaseURL() == "https://shop.example.com")
    }

    @Test func anAddressThatIsNotHTTPOrCarriesAQueryIsRefused() {
        for bad in ["shop.example.com", "ftp://shop.example.com", "https://shop.example.com/?a=1", "https://a b.com", "javascript:alert(1)"] {
            var config = Config()
            config.app.publicURL = bad
            #expect(throws: ConfigError.self, "\(bad)") { try config.publicBaseURL() }
        }
    }
}
