import Foundation

/// Every setting of the shop's services, typed, with its default (`Config/shop.json` repeats the
/// defaults, and a test keeps the two equal); `Config.settings` reads and checks each key. Each key
/// can be overridden by `SHOP_<SECTION>_<KEY>` in the environment. A bad value stops start-up with
/// a message naming the key. The HTTP server's `server.*` settings share the file but not this
/// type: ShopAPI's `ServerSettings` holds them.
public struct Config: Sendable {
    public struct Database: Sendable {
        /// Which database: `sqlite:PATH`, or `postgresql://…` (libpq's connection string rules, so
        /// `PGPASSWORD`, `sslmode` and Unix sockets work). Empty: `sqlite:` + `path`.
        public var url = ""
        /// Optional read-only streaming standby of `url` (PostgreSQL only): catalogue and public
        /// social reads go there, everything a user just wrote is read from `url`. Empty: none.
        public var readURL = ""
        /// PostgreSQL connections per node (and as many again to `read_url`).
        public var poolSize = 10
        /// How long a request waits for a free PostgreSQL connection before 503 `database_unavailable`.
        public var poolTimeoutSeconds = 5
        /// Checkouts, cancels and favourites written at once per node, off the request threads
        /// (the `writes` bulkhead; eight times as many wait, then 503 `database_busy`).
        public var writeWorkers = 8
        public var path = "data/shop.sqlite"
        /// Empty: the migrations built into the binary; a path: the `.sql` files of that folder.
        public var migrationsPath = ""
        public var readers = 4
        /// SQLite: how much of the database file each connection reads through a memory map
        /// (`PRAGMA mmap_size`), in MiB; 0 reads every page with `pread` into the page cache.
        public var sqliteMmapMB = 256
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
        /// Argon2 computations at once; 0 means half the cores (at least one).
        public var maxConcurrentHashes = 0
        /// Requests that may wait for hashing on a node; beyond them → 503 `busy`.
        public var hashQueue = 64
        /// How long a node answers a token from memory after reading it (`SessionCache`): a token
        /// revoked elsewhere is refused by every node within this; 0 (the default) reads it on every
        /// request, so a logout is refused everywhere at once.
        public var sessionCacheMilliseconds = 0

        /// Argon2 computations at once on this node: `maxConcurrentHashes`, or half the cores.
        public var concurrentHashes: Int {
            maxConcurrentHashes > 0 ? maxConcurrentHashes : HashingLimit.automatic()
        }
    }

    public struct Orders: Sendable {
        public var paymentTimeoutMinutes = 30
        public var autoCompleteDays = 15
        /// Unpaid orders hold stock, so one buyer may hold only this many at once.
        public var maxUnpaidPerUser = 5
        /// Orders placed before this time of day (`HH:MM` in `app.timezone`, kept as minutes after
        /// midnight) can be delivered the same day; later ones from tomorrow.
        public var sameDayCutoff = 14 * 60
        /// The latest delivery day a buyer may pick: today plus this many days.
        public var maxDaysAhead = 30
        /// Days the shop does not deliver on (holidays), `YYYY-MM-DD` in `app.timezone`.
        public var closedDates: [CalendarDay] = []
        /// Orders a delivery slot of one day takes at most (0: no limit); a slot that is full is no
        /// longer offered, and a cancelled or refunded order gives its place back.
        public var slotCapacity = 0
        /// Days of every year (`MM-DD`: Valentine's Day `02-14`, 520 `05-20`, 七夕) when the shop
        /// takes no same-day orders and adds `peakFeeCents` to the delivery fee.
        public var peakDates: [MonthDay] = ["02-14", "05-20"].compactMap(MonthDay.init)
        public var peakFeeCents = 0
        /// How long after delivery (or shipping, when never marked delivered) a buyer may ask for after-sale.
        public var afterSaleHours = 48
    }

    /// Refused coupon codes allowed per buyer and per client address in the window, before
    /// previews and checkouts with a code answer `too_many_attempts` (codes cannot be guessed).
    public struct Coupons: Sendable {
        public var maxFailuresPerBuyer = 10
        public var maxFailuresPerIP = 30
        public var failureWindowSeconds = 60
    }

    public struct Payments: Sendable {
        /// Whether the mockpay test provider takes notifications: `auto` means in development only.
        public enum MockpaySwitch: String, Sendable { case auto, on = "true", off = "false" }
        public var mockpayEnabled = MockpaySwitch.auto
        public var mockpaySecret = Config.developmentMockpaySecret
        public var wechatpayAPIKey = ""
        public var wechatpayMchID = ""
        public var wechatpayAppID = ""
        /// The merchant's API client certificate and its key (PEM, from the merchant platform's
        /// apiclient_cert.pem / apiclient_key.pem): WeChat Pay's refund API is mutual TLS. Environment only.
        public var wechatpayClientCertPEM = ""
        public var wechatpayClientKeyPEM = ""
        public var alipayPublicKeyPEM = ""
        public var alipayAppID = ""
        public var alipaySellerID = ""
        /// The merchant's RSA private key (PKCS#8 or PKCS#1 PEM) that signs Alipay requests; set it
        /// in the environment (`SHOP_PAYMENTS_ALIPAY_PRIVATE_KEY_PEM`), never in a committed file.
        public var alipayPrivateKeyPEM = ""
        /// Alipay's OpenAPI gateway (app pay order strings name nothing else; queries and refunds go here).
        public var alipayGatewayURL = "https://openapi.alipay.com/gateway.do"
        /// WeChat Pay v2's API host: `/pay/unifiedorder`, `/pay/orderquery` are under it.
        public var wechatpayGatewayURL = "https://api.mch.weixin.qq.com"
        /// The shop's public `https://` address: notify URLs sent to the providers start with it.
        public var publicBaseURL = ""
        /// How long a call to a provider may take before the request answers 504.
        public var providerTimeoutSeconds = 10
        /// Calls to providers in flight on one node; beyond them → 503 `provider_busy`.
        public var maxConcurrentCalls = 32
        /// Failures or timeouts in a row after which a provider is skipped (503 `provider_unavailable`)...
        public var breakerFailures = 5
        /// ...for this many seconds; then one trial call decides.
        public var breakerSeconds = 30
        /// Payment starts (calls for a fresh answer) per order; beyond them → 429 `too_many_attempts`.
        public var maxAttemptsPerOrder = 10
    }

    public struct App: Sendable {
        public enum Environment: String, Sendable { case development, production }
        public var env = Environment.development
        public var logLevel = Logger.Level.info
        public var logFormat = Logger.Format.text
        /// Where shoppers reach the shop (`https://shop.example.com`): share pages link and show
        /// images under it, `/openapi.json` names it. Required in production; empty in development:
        /// the address the request came to (its Host header).
        public var publicURL = ""
        /// The shop's time zone (an IANA name): delivery days and the same-day cutoff are read in it.
        public var timezone = "Asia/Shanghai"
        /// The shop's name as buyers see it (`GET /shop-info`).
        public var name = "花田小憩"
        /// How buyers reach customer service (free text: a phone, a WeChat ID), shown by the
        /// storefront beside the cart cap's message; empty: none shown.
        public var serviceContact = ""

        /// The longest `name` and `service_contact` (characters) the settings accept.
        public static let maxNameLength = 40
        public static let maxServiceContactLength = 100

        /// `timezone` as a zone; it was checked when the configuration was read.
        public var timeZone: TimeZone { TimeZone(identifier: timezone) ?? ShopTime.zone }
    }

    public struct Catalog: Sendable {
        public var importMaxBytes = 50 * 1_048_576
    }

    public struct Search: Sendable {
        /// A keyword is hot only once this many different people (user, else client IP) searched it.
        public var hotMinSearchers = 3
        /// A keyword containing any of these (lowercase) never becomes hot; a comment or article containing one is refused.
        public var blockedWords = ["加微信", "代购", "微信", "qq", "薇信", "刷单"]
        /// Searches (`GET /products` with `q`) one client address may make per minute on one node.
        public var maxPerMinutePerIP = 120
        /// The synonyms dictionary file (format: Config/search_synonyms.txt); empty: that file as built
        /// into the binary. Staff edits (PUT /admin/search/synonyms) replace it in the database.
        public var synonymsPath = ""
    }

    public struct Media: Sendable {
        /// The folder of images the shop holds itself, served under `/media/` before the demo
        /// pictures built into the binary; relative paths start at the working directory.
        public var path = "data/media"
        /// The largest picture `POST /media` takes, in bytes of the upload.
        public var maxUploadBytes = 5 * 1_048_576
        /// The most pixels (width × height, read from the header before decoding) a picture may have.
        public var maxPixels = 40_000_000
        /// Uploads one user may make per minute on one node (kept in memory, like the search limit).
        public var maxUploadsPerMinute = 10
    }

    /// How order notices reach buyers and recipients (paid, shipped, delivered, refunded,
    /// after-sale decided), like `verification`'s codes: the log, a JSON-lines file, or an SMS gateway.
    public struct Notifications: Sendable {
        public enum Sender: String, Sendable { case log, file, webhook }
        public var sender = Sender.log
        public var filePath = "data/notices.jsonl"
        public var webhookURL = ""
        /// How long a dispatcher's claim on a batch of notices holds; a claim left by a node that
        /// died is taken again after it. Longer than a batch takes to send (10 × the webhook's 5 s).
        public var claimSeconds = 60
    }

    public struct Admin: Sendable {
        /// How long a staff token works; staff sign in again each working day.
        public var tokenLifetimeHours = 12
    }

    public var database = Database()
    public var cart = Cart()
    public var verification = Verification()
    public var auth = Auth()
    public var orders = Orders()
    public var coupons = Coupons()
    public var payments = Payments()
    public var app = App()
    public var catalog = Catalog()
    public var search = Search()
    public var media = Media()
    public var admin = Admin()
    public var notifications = Notifications()

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

    /// Whether mockpay (a test provider anyone holding its secret can "pay" with) is on: always in
    /// development unless switched off, in production only when `payments.mockpay_enabled=true`.
    public var isMockpayEnabled: Bool {
        switch payments.mockpayEnabled {
        case .on: return true
        case .off: return false
        case .auto: return app.env == .development
        }
    }

    /// Secrets shorter than this are refused in production.
    public static let minimumSecretBytes = 32

    /// Why this configuration must not serve production, one line each naming its key (empty
    /// when it may): development or short secrets, codes that never reach a phone, and an SMS
    /// gateway reached over plain HTTP.
    public var productionProblems: [String] {
        var problems = developmentSecretsInUse.map { "\($0) still has its development value" }
        for (key, secret) in [("auth.pepper", auth.pepper), ("payments.mockpay_secret", payments.mockpaySecret)]
        where secret.utf8.count < Self.minimumSecretBytes {
            problems.append("\(key) is shorter than \(Self.minimumSecretBytes) bytes")
        }
        switch verification.sender {
        case .log: problems.append("verification.sender is log, which writes every code to the server log")
        case .file: problems.append("verification.sender is file, which writes every code to a local file")
        case .webhook: break
        }
        if verification.sender == .webhook, !verification.webhookURL.lowercased().hasPrefix("https://") {
            problems.append("verification.webhook_url must be an https:// URL")
        }
        problems += paymentProblems
        return problems
    }

    /// A provider configured in part (some of its keys set, not all) cannot take money in production:
    /// its app would be shown a payment that cannot be started or whose notification cannot be checked.
    var paymentProblems: [String] {
        var problems: [String] = []
        let p = payments
        let providers: [(String, [(String, String)])] = [
            ("WeChat Pay", [("payments.wechatpay_api_key", p.wechatpayAPIKey), ("payments.wechatpay_mch_id", p.wechatpayMchID),
                            ("payments.wechatpay_app_id", p.wechatpayAppID),
                            ("payments.wechatpay_client_cert_pem", p.wechatpayClientCertPEM),
                            ("payments.wechatpay_client_key_pem", p.wechatpayClientKeyPEM)]),
            ("Alipay", [("payments.alipay_public_key_pem", p.alipayPublicKeyPEM), ("payments.alipay_private_key_pem", p.alipayPrivateKeyPEM),
                        ("payments.alipay_app_id", p.alipayAppID)]),
        ]
        var anyConfigured = false
        for (name, keys) in providers {
            let missing = keys.filter { $0.1.isEmpty }.map(\.0)
            if missing.count < keys.count { anyConfigured = true }
            if !missing.isEmpty, missing.count < keys.count {
                problems.append("\(name) is half-configured: \(missing.joined(separator: ", ")) must be set too")
            }
        }
        if anyConfigured, !p.publicBaseURL.lowercased().hasPrefix("https://") {
            problems.append("payments.public_base_url must be the shop's https:// address when a payment provider is configured")
        }
        return problems
    }

    /// The database to open, `database.url` or else the SQLite file at `database.path`.
    public var databaseLocation: DatabaseLocation {
        DatabaseLocation(url: database.url) ?? .sqlite(path: database.path)
    }

    /// The read-only standby to send lag-tolerant reads to (`database.read_url`): nil when none.
    /// It must be PostgreSQL, beside a PostgreSQL `database.url`.
    public func readReplicaURL() throws -> String? {
        guard !database.readURL.isEmpty else { return nil }
        guard case .postgresql(let url)? = DatabaseLocation(url: database.readURL) else {
            throw ConfigError(key: "database.read_url", reason: "must be a postgresql:// URL (a standby of database.url)")
        }
        guard case .postgresql = databaseLocation else {
            throw ConfigError(key: "database.read_url", reason: "needs database.url to name a PostgreSQL primary")
        }
        return url
    }

    /// The origin links in notices start with: `app.public_url`, or in development without it the
    /// default listening address (a notice is written off any request, so no Host can name it).
    public func noticeLinkBase() -> String {
        ((try? publicBaseURL()) ?? nil) ?? "http://127.0.0.1:8080"
    }

    /// `app.public_url` without a trailing slash: nil when empty in development (use the
    /// request's Host). Production requires it: a request's `Host` or `X-Forwarded-Host` is the
    /// client's to write, and links built from it would be served to others.
    public func publicBaseURL() throws -> String? {
        var url = app.publicURL
        guard !url.isEmpty else {
            guard app.env == .development else {
                throw ConfigError(key: "app.public_url", reason: "is required in production: the address shoppers reach the shop at, such as https://shop.example.com")
            }
            return nil
        }
        while url.hasSuffix("/") { url.removeLast() }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), url.count > 8,
              !url.contains(where: { $0 == "?" || $0 == "#" || $0 == "\"" || $0 == "<" || $0 == ">" || $0.isWhitespace }) else {
            throw ConfigError(key: "app.public_url", reason: "must be an http:// or https:// address with no query, such as https://shop.example.com")
        }
        return url
    }
}
