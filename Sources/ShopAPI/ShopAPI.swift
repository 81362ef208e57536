import Bulkheads
import Crypto
import Foundation
import HTTP
import Metrics
import ShopCore

/// The HTTP face of the shop: every route under its middleware, ready to hand to `HTTP.Server`.
public struct ShopAPI: Sendable {
    public let router: Router
    public let responder: Responder
    /// What `GET /metrics` shows (on its own port, see `MetricsEndpoint`).
    public let metrics: ShopMetrics
    /// Body limits above `server.max_body_bytes` by route (`ServerOptions.bodyLimits`): picture uploads.
    public let bodyLimits: [String: Int]
    /// Where `HTTP.Server` moves requests that must wait (hashing, providers, a busy pool, writes).
    public let offloadTargets: [BulkheadName: OffloadTarget]
    /// The bulkhead a request's route always runs on, for `HTTP.Server`'s `placement`.
    public var placement: @Sendable (Request) -> BulkheadName? { { [router] in router.bulkhead(for: $0) } }
    /// Reads kept catalogue bodies again in the background once their counters are old.
    let keptBodies = KeptBodyRefresher<CatalogCacheKey>()

    /// `server`: the HTTP settings the routes need (body limit, trusted proxies, CORS origins).
    /// `document`: the OpenAPI document served at `/openapi.json` (`shop` passes the one built into
    /// it); without it, the file at `documentPath`, relative to the working directory.
    /// `ticks`: monotonic nanoseconds, for the age of kept catalogue bodies (tests move it by hand).
    public init(shop: Shop, server: ServerSettings = ServerSettings(), documentPath: String = "openapi.json", document: [UInt8]? = nil,
                metrics: MetricsRegistry = MetricsRegistry(),
                ticks: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        let offloadTargets = ShopBulkheads.make(shop.config)
        self.offloadTargets = offloadTargets
        bodyLimits = ["POST \(UploadController.path)": max(shop.config.media.maxUploadBytes, server.maxBodyBytes)]
        let shopMetrics = ShopMetrics(registry: metrics, database: shop.reads)
        shopMetrics.sampleBulkheads(offloadTargets.values.map(\.bulkhead), providers: shop.payments.guardian)
        shopMetrics.sampleCatalogVersions(shop.catalogVersions)
        self.metrics = shopMetrics
        let counting = MetricsMiddleware(registry: metrics)
        let routes = Routes()
        let logger = shop.logger
        let ids = RequestIDGenerator(seed: shop.random.bytes(8))
        let requestID = RequestIDMiddleware(makeID: { ids.next() }) { request, response, id, ms in
            guard logger.minimumLevel <= .info else { return }
            logger.info("request", ["method": request.method, "path": request.path, "status": String(response.status.code),
                                    "ms": Self.tenths(ms), "id": id, "ip": request.clientAddress])
        }
        let errors = ErrorMiddleware(map: { error in
            shopMetrics.databaseError(error)
            let mapped = ErrorMapping.map(error)
            if mapped?.code == ErrorMapping.databaseUnavailable {
                logger.warning("database unavailable", ["error": String(describing: error)])
            }
            return mapped
        }) { error, request, context in
            logger.error("unhandled error", ["id": context.requestID, "path": request.path, "error": String(describing: error)])
        }
        let root = routes.group("")
        HealthController(shop: shop).register(root)
        let proxies = (try? TrustedProxies(parsing: server.trustedProxies)) ?? .none
        let origin = ShopOrigin(config: shop.config, proxies: proxies)
        DocsController(document: document ?? FileManager.default.contents(atPath: documentPath).map { [UInt8]($0) }, pageDirectory: Bundle.module.url(forResource: "DocsPage", withExtension: nil),
                       origin: origin).register(root)
        StorefrontController(directory: Bundle.module.url(forResource: "Public", withExtension: nil)).register(root)
        AdminPageController(directory: Bundle.module.url(forResource: "AdminPage", withExtension: nil)).register(root)
        MediaController(folders: [URL(fileURLWithPath: shop.config.media.path, isDirectory: true)]
            + [Bundle.module.url(forResource: "Media", withExtension: nil)].compactMap { $0 },
                        media: shop.media.canProcess ? shop.media : nil).register(root)
        ShareController(catalog: shop.catalog, articles: shop.articles, origin: origin, drawsSVG: shop.media.canProcess).register(root)
        TrackingController(orders: shop.orders, timeZone: shop.config.app.timeZone).register(root)
        let api = routes.group(Self.prefix)
        let signedIn = api.group("", middleware: [AuthMiddleware(accounts: shop.accounts)])
        AuthController(accounts: shop.accounts, verification: shop.verification).register(public: api, signedIn: signedIn)
        MeController(accounts: shop.accounts).register(signedIn)
        UploadController(media: shop.media)
            .register(api.group("", middleware: [BuyerOrStaffAuthMiddleware(accounts: shop.accounts, staff: shop.staff)]))
        let personalised = api.group("", middleware: [AuthMiddleware(accounts: shop.accounts, required: false)])
        CatalogController(catalog: shop.catalog, favorites: shop.favorites, cache: ResponseCache(now: ticks), refresher: keptBodies)
            .register(api, personalised: personalised)
        FavoriteController(favorites: shop.favorites).register(signedIn)
        CartController(carts: shop.carts).register(signedIn)
        AddressController(addresses: shop.addresses).register(signedIn)
        RegionController(regions: shop.regions).register(api)
        OrderController(orders: shop.orders, payments: shop.payments, logger: shop.logger, metrics: shopMetrics,
                        refunds: offloadTargets[.payments]?.bulkhead, origin: origin).register(signedIn)
        AfterSaleController(afterSales: shop.afterSales).register(signedIn)
        DeliveryController(orders: shop.orders).register(api)
        DeliveryQuoteController(orders: shop.orders).register(signedIn)
        ShopInfoController(app: shop.config.app).register(api)
        PaymentController(payments: shop.payments, metrics: shopMetrics, origin: origin,
                          fallbackOrigin: shop.config.payments.publicBaseURL).register(public: api, signedIn: signedIn)
        SocialController(social: shop.social, articles: shop.articles).register(public: personalised, signedIn: signedIn)
        ArticleController(articles: shop.articles).register(public: personalised, signedIn: signedIn)
        // The operators' desk: staff tokens only, each route's permission from `AdminPermissions`.
        let admin = AdminRoutes(api, staff: shop.staff)
        AdminAuthController(staff: shop.staff).register(public: api, admin: admin)
        AdminStaffController(staff: shop.staff).register(admin)
        AdminAuditController(audit: shop.audit, timeZone: shop.config.app.timeZone).register(admin)
        AdminUserController(buyers: shop.buyers).register(admin)
        AdminModerationController(moderation: shop.moderation).register(admin)
        AdminReportController(reports: shop.reports, timezone: shop.config.app.timezone).register(admin)
        AdminCatalogController(admin: shop.catalogAdmin).register(admin)
        AdminCouponController(coupons: shop.coupons, clock: shop.clock).register(admin)
        AdminDeliveryController(zones: shop.deliveryZones).register(admin)
        AdminSearchController(synonyms: shop.searchSynonyms).register(admin)
        AdminOrderController(orders: shop.orders, payments: shop.payments, logger: shop.logger,
                             refunds: offloadTargets[.payments]?.bulkhead, origin: origin).register(admin)
        AdminAfterSaleController(afterSales: shop.afterSales, payments: shop.payments, logger: shop.logger,
                                 refunds: offloadTargets[.payments]?.bulkhead).register(admin)
        // Development-only routes: absent in production, and in development only for requests
        // straight from this machine (not through a proxy, which makes everyone local).
        var developmentOnly: [any Middleware] = []
        if shop.config.app.env == .development {
            DevelopmentController(payments: shop.payments).register(signedIn)
            developmentOnly.append(LoopbackOnlyMiddleware(prefix: DevelopmentController.prefix))
        }
        let router = Router(routes)
        self.router = router
        // CORS sits outside the error mapping, so error answers carry its headers too, and inside
        // the metrics, so a preflight it answers is counted; it never opens the operators' desk to other origins.
        let cors = CORSMiddleware(policy: CORSPolicy(origins: server.corsOrigins,
                                                     closedPrefixes: ["\(Self.prefix)/admin", "/admin"]), router: router)
        self.responder = ([requestID, counting] + developmentOnly + [cors, errors]).wrapping { request, context in
            try router.respond(to: request, context: context)
        }
    }

    /// Milliseconds with one decimal (`12.3`, rounded half away from zero) for the access log:
    /// `String(format: "%.1f")` went through Foundation's formatter, 11k instructions a request.
    static func tenths(_ milliseconds: Double) -> String {
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds < 1e15 else { return String(milliseconds) }
        let tenths = Int64((milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
