import Bulkheads
import Crypto
import Foundation
import SQL
import Synchronization

/// The composition root of the shop's domain: the database, settings, time, randomness and
/// every service, built once and shared by the HTTP API and the command line.
public final class Shop: Sendable {
    public let pool: any Database
    /// The search of `pool`'s engine.
    public let search: any SearchEngine
    /// Where reads that may be a moment old go: a streaming standby (`database.read_url`) in
    /// front of `pool`, or `pool` itself. The catalogue and public social pages read here;
    /// anything a user just wrote (cart, orders, addresses, their own likes and follows) is read
    /// from `pool`, the primary.
    public let reads: any Database
    /// The catalogue's versions in memory (PostgreSQL only; nil on SQLite, where reading them is a
    /// call into the same process): `shop serve` refreshes them when told of a change
    /// (`NotificationListener`) and on a heartbeat, and the catalogue checks kept answers against
    /// them without a statement.
    public let catalogVersions: PushedCatalogVersions?
    public let config: Config
    public let clock: Clock
    public let random: SecureRandom
    public let logger: Logger
    public let migrator: Migrator
    public let verification: VerificationService
    public let accounts: AccountService
    /// Staff accounts and their sign-ins (the operators' desk).
    public let staff: StaffService
    /// What staff changed, for owners and managers to read.
    public let audit: AuditLog
    public let catalog: CatalogService
    /// The search synonyms in force, and staff replacing them (issue 34).
    public let searchSynonyms: SearchSynonyms
    public let catalogImporter: CatalogImporter
    public let carts: CartService
    /// China's administrative divisions (GB/T 2260) the shop ships: addresses name them, zones group them.
    public let regions: RegionDirectory
    public let addresses: AddressService
    public let orders: OrderService
    public let payments: PaymentService
    public let social: SocialService
    public let articles: ArticleService
    public let favorites: FavoriteService
    public let coupons: CouponService
    /// Refused coupon codes per buyer and address, shared by cart previews and checkouts.
    public let couponAttempts: CouponAttempts
    public let articleImporter: ArticleImporter
    public let demoAuthors: DemoAuthorSeeder
    public let demo: DemoShopSeeder
    /// Uploaded and imported pictures, re-encoded by the `ImageProcessor` the composition root gives.
    public let media: MediaLibrary
    /// Writes the notices an order's event owes into the outbox, inside the event's transaction.
    public let notices: Notices
    /// Sends the outbox (`NoticeDispatcher` runs it on `shop serve`), lists and retries notices.
    public let noticeOutbox: NoticeOutbox
    /// Set once `shop serve` has been told to stop: `/readyz` then says so while requests are still served.
    private let draining = Mutex(false)

    /// `codeSender` defaults to the one `verification.sender` names; `images` re-encodes pictures
    /// (none: uploads are refused, imports copy files as they are); `replica`, a read-only
    /// standby of `pool`, takes the reads that may lag (see `reads`); `search` must match `pool`'s
    /// engine; `notifyURL` is the HTTP side's payment webhook address.
    public init(pool: any Database, replica: (any Database)? = nil, search: any SearchEngine, config: Config,
                notifyURL: @escaping PaymentNotifyURL, clock: Clock = .system,
                random: SecureRandom = SecureRandom(), logger: Logger, migrator: Migrator,
                codeSender: (any CodeSender)? = nil, images: (any ImageProcessor)? = nil,
                noticeSender: (any NoticeSender)? = nil) throws {
        // On PostgreSQL this node's writes are counted, so its catalogue versions in memory are
        // read again after any of them: a node sees its own changes at once.
        let writes = WriteGeneration()
        let pool: any Database = pool.dialect == .postgresql ? WriteCountingDatabase(pool, generation: writes) : pool
        self.pool = pool
        self.search = search
        let reads: any Database = replica.map { ReplicaReads(primary: pool, replica: $0) } ?? pool
        self.reads = reads
        let catalogVersions = pool.dialect == .postgresql ? PushedCatalogVersions(pool: reads, writes: writes) : nil
        self.catalogVersions = catalogVersions
        self.config = config
        self.clock = clock
        self.random = random
        self.logger = logger
        self.migrator = migrator
        verification = VerificationService(pool: pool, settings: config.verification, pepper: config.auth.pepper,
                                           clock: clock, random: random,
                                           sender: try codeSender ?? Self.codeSender(config.verification, logger: logger))
        accounts = try AccountService(pool: pool, settings: config.auth, clock: clock, random: random,
                                      verification: verification)
        staff = try StaffService(pool: pool, settings: config.auth, lifetimeHours: config.admin.tokenLifetimeHours, clock: clock,
                                 random: random, credentials: accounts.credentials)
        audit = AuditLog(pool: pool)
        let synonyms = try SynonymDictionary.configured(path: config.search.synonymsPath)
        catalog = CatalogService(pool: reads, search: search, clock: clock, logger: logger, settings: config.search, synonyms: synonyms,
                                 versions: catalogVersions)
        searchSynonyms = SearchSynonyms(pool: pool, clock: clock, configured: synonyms)
        media = MediaLibrary(processor: images, settings: config.media, clock: clock)
        catalogImporter = CatalogImporter(pool: pool, search: search, clock: clock, maxBytes: config.catalog.importMaxBytes,
                                          mediaPath: config.media.path, media: media)
        let notices = Notices(linkBase: config.noticeLinkBase(), clock: clock)
        self.notices = notices
        noticeOutbox = NoticeOutbox(pool: pool, clock: clock, sender: try noticeSender ?? Self.noticeSender(config.notifications, logger: logger),
                                    logger: logger, node: "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(random.token(byteCount: 6))",
                                    leaseSeconds: Int64(config.notifications.claimSeconds))
        couponAttempts = CouponAttempts(pool: pool, settings: config.coupons, clock: clock)
        carts = CartService(pool: pool, maxItems: config.cart.maxItems, clock: clock, couponAttempts: couponAttempts)
        regions = .china
        addresses = AddressService(pool: pool, clock: clock, regions: regions)
        orders = OrderService(pool: pool, settings: config.orders, maxItems: config.cart.maxItems, clock: clock,
                              random: random, couponAttempts: couponAttempts, timeZone: config.app.timeZone, notices: notices)
        payments = try PaymentService(pool: pool, settings: config.payments, mockpayEnabled: config.isMockpayEnabled,
                                      notifyURL: notifyURL,
                                      clock: clock, logger: logger, random: random, notices: notices)
        social = SocialService(pool: pool, publicReads: reads, clock: clock)
        articles = ArticleService(pool: pool, publicReads: reads, clock: clock, blockedWords: config.search.blockedWords)
        favorites = FavoriteService(pool: pool, clock: clock)
        coupons = CouponService(pool: pool, clock: clock)
        articleImporter = ArticleImporter(pool: pool, clock: clock, maxBytes: config.catalog.importMaxBytes)
        demoAuthors = DemoAuthorSeeder(pool: pool, clock: clock)
        demo = DemoShopSeeder(catalog: catalogImporter, authors: demoAuthors, articles: articleImporter)
    }

    /// The sender `verification.sender` names.
    static func codeSender(_ settings: Config.Verification, logger: Logger) throws -> any CodeSender {
        switch settings.sender {
        case .log: return LogCodeSender(logger: logger)
        case .file: return FileCodeSender(path: settings.filePath, logger: logger)
        case .webhook:
            guard let url = URL(string: settings.webhookURL), url.scheme == "http" || url.scheme == "https" else {
                throw ConfigError(key: "verification.webhook_url", reason: "must be an http(s) URL when verification.sender is webhook")
            }
            return WebhookCodeSender(url: url, logger: logger)
        }
    }

    /// The sender `notifications.sender` names.
    static func noticeSender(_ settings: Config.Notifications, logger: Logger) throws -> any NoticeSender {
        switch settings.sender {
        case .log: return LogNoticeSender(logger: logger)
        case .file: return FileNoticeSender(path: settings.filePath)
        case .webhook:
            guard let url = URL(string: settings.webhookURL), url.scheme == "http" || url.scheme == "https" else {
                throw ConfigError(key: "notifications.webhook_url", reason: "must be an http(s) URL when notifications.sender is webhook")
            }
            return WebhookNoticeSender(url: url)
        }
    }

    /// Marks the shop as about to stop: `/readyz` answers 503 from now on, so a load balancer
    /// stops sending new requests while those already on their way are still served.
    public func startDraining() {
        draining.withLock { $0 = true }
    }

    /// Whether `startDraining` has been called.
    public var isDraining: Bool { draining.withLock { $0 } }

    /// Migrations applied unchanged and the database answering: what `/readyz` reports.
    public func isReady() throws -> Bool {
        do {
            guard try migrator.isUpToDate(pool) else { return false }
            return try pool.read { try $0.scalarInt("SELECT 1") } == 1
        } catch let offload as OffloadRequest {
            // a busy pool on a request thread: the check moves to the database bulkhead and runs
            // there, where it waits its turn; it is not a failed check
            throw offload
        } catch {
            logger.warning("readiness check failed", ["error": String(describing: error)])
            return false
        }
    }
}
