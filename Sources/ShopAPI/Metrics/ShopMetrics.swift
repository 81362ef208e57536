import Bulkheads
import Metrics
import SQL
import ShopCore

/// The shop's own counters beside the HTTP ones, counted where the API sees the outcome so
/// ShopCore stays free of metrics: orders placed, payments by provider and result, sweeper
/// runs and database errors that reached a request.
public struct ShopMetrics: Sendable {
    public let registry: MetricsRegistry
    let ordersPlaced: Counter
    let payments: Counter
    let sweeperRuns: Counter
    let databaseErrors: Counter
    let notices: Counter

    /// `database`: whose connection pools `shop_db_pool_*` report at each scrape.
    public init(registry: MetricsRegistry, database: (any Database)? = nil) {
        self.registry = registry
        if let database {
            Self.samplePools(of: database, into: registry)
        }
        ordersPlaced = registry.counter("shop_orders_placed_total", help: "Orders placed (idempotent replays not counted).")
        payments = registry.counter("shop_payments_total",
                                    help: "Payment attempts started and provider notifications, by provider and result.",
                                    labels: ["provider", "result"])
        sweeperRuns = registry.counter("shop_sweeper_runs_total", help: "Background sweeper runs, by result.",
                                       labels: ["result"])
        databaseErrors = registry.counter("shop_database_errors_total",
                                          help: "Database errors that reached a request, by kind.", labels: ["kind"])
        notices = registry.counter("shop_notices_total", help: "Order notices this node's dispatcher sent or failed to send, by result.",
                                   labels: ["result"])
    }

    /// One dispatcher run's notices: hand this to `NoticeDispatcher(onRun:)`.
    public func noticesDispatched(_ run: NoticeOutbox.Run) {
        if run.sent > 0 { notices.inc(["sent"], by: Double(run.sent)) }
        if run.failed > 0 { notices.inc(["failed"], by: Double(run.failed)) }
    }

    /// A checkout that made a new order.
    func orderPlaced() { ordersPlaced.inc() }

    /// `result`: `started`, `start_failed`, `notified` or `notify_rejected`. A provider name
    /// the shop does not know counts as `unknown`.
    func payment(_ provider: String, _ result: String) {
        payments.inc([PaymentProvider(rawValue: provider)?.rawValue ?? "unknown", result])
    }

    /// One background sweep, `ok` or `failed`: hand this to `BackgroundSweeper(onRun:)`.
    public func sweeperRun(succeeded: Bool) { sweeperRuns.inc([succeeded ? "ok" : "failed"]) }

    /// Counts `error` when it is a database engine's error.
    func databaseError(_ error: any Error) {
        guard let error = error as? any SQLError else { return }
        let kind = switch error.kind {
        case .uniqueViolation: "unique_violation"
        case .checkViolation: "check_violation"
        case .foreignKeyViolation: "foreign_key_violation"
        case .notNullViolation: "not_null_violation"
        case .transient: "transient"
        case .connectionLost: "connection_lost"
        case .poolExhausted: "pool_exhausted"
        case .other: "other"
        }
        databaseErrors.inc([kind])
    }

    /// Database pool levels and waits, labelled by pool (`primary`, `replica`; SQLite's `writer`
    /// and `readers`): waits that grow mean the pool is too small or the database is slow.
    static func samplePools(of database: any Database, into registry: MetricsRegistry) {
        func each(_ value: @escaping @Sendable (PoolStatistics) -> Double) -> @Sendable () -> [(labels: [String], value: Double)] {
            { database.poolStatistics.map { ([$0.name], value($0)) } }
        }
        registry.sampled("shop_db_pool_connections", help: "Connections a database pool lends at most.",
                         labels: ["pool"], sample: each { Double($0.size) })
        registry.sampled("shop_db_pool_in_use", help: "Connections a database pool has lent right now.",
                         labels: ["pool"], sample: each { Double($0.inUse) })
        registry.sampled("shop_db_pool_acquisitions_total", help: "Connections lent by a database pool.",
                         type: "counter", labels: ["pool"], sample: each { Double($0.acquisitions) })
        registry.sampled("shop_db_pool_waits_total", help: "Connections that were not free at once and had to be waited for.",
                         type: "counter", labels: ["pool"], sample: each { Double($0.waits) })
        registry.sampled("shop_db_pool_wait_seconds_total", help: "Seconds spent waiting for a free connection.",
                         type: "counter", labels: ["pool"], sample: each { $0.waitSeconds })
        registry.sampled("shop_db_pool_timeouts_total", help: "Waits for a connection that gave up (answered 503).",
                         type: "counter", labels: ["pool"], sample: each { Double($0.timeouts) })
    }
}

extension ShopMetrics {
    /// Each bulkhead's queue, rejections and waits, and each payment provider's breaker and calls
    /// in flight, read at every scrape: what shows a slow dependency filling its own bulkhead.
    /// The catalogue versions a PostgreSQL node holds in memory: how old they are (past 1 s each kept
    /// answer costs a statement again) and how often they are read.
    func sampleCatalogVersions(_ versions: PushedCatalogVersions?) {
        guard let versions else { return }
        registry.sampled("shop_catalog_versions_age_seconds",
                         help: "Seconds since this node last read the catalogue versions it checks kept pages against (trusted up to 1).",
                         sample: { versions.ageSeconds.map { [([], $0)] } ?? [] })
        registry.sampled("shop_catalog_versions_readings_total",
                         help: "Readings of the catalogue versions: on each change notification, every 250 ms, after this node's writes.",
                         type: "counter", sample: { [([], Double(versions.readings))] })
    }

    func sampleBulkheads(_ bulkheads: [Bulkhead], providers: ProviderGuard) {
        func each(_ value: @escaping @Sendable (BulkheadStatistics) -> Double) -> @Sendable () -> [(labels: [String], value: Double)] {
            { bulkheads.map { $0.statistics }.sorted { $0.name < $1.name }.map { ([$0.name], value($0)) } }
        }
        registry.sampled("shop_bulkhead_workers", help: "Threads a bulkhead may run at once.",
                         labels: ["bulkhead"], sample: each { Double($0.workers) })
        registry.sampled("shop_bulkhead_running", help: "Requests a bulkhead is running now.",
                         labels: ["bulkhead"], sample: each { Double($0.running) })
        registry.sampled("shop_bulkhead_queue_depth", help: "Requests waiting for a bulkhead's worker now.",
                         labels: ["bulkhead"], sample: each { Double($0.queued) })
        registry.sampled("shop_bulkhead_rejections_total", help: "Requests refused (503) because the bulkhead was full.",
                         type: "counter", labels: ["bulkhead"], sample: each { Double($0.rejected) })
        registry.sampled("shop_bulkhead_completed_total", help: "Requests a bulkhead has answered.",
                         type: "counter", labels: ["bulkhead"], sample: each { Double($0.completed) })
        registry.sampled("shop_bulkhead_wait_seconds_total", help: "Seconds requests waited for a bulkhead's worker.",
                         type: "counter", labels: ["bulkhead"], sample: each { $0.waitSeconds })
        let providerNames = PaymentProvider.allCases
        registry.sampled("shop_payment_breaker_open", help: "A provider's circuit breaker: 0 closed, 1 open, 0.5 half open (one trial call).",
                         labels: ["provider"], sample: {
            providerNames.map { provider in
                let value: Double = switch providers.breakerState(provider) {
                case .closed: 0
                case .open: 1
                case .halfOpen: 0.5
                }
                return ([provider.rawValue], value)
            }
        })
        registry.sampled("shop_payment_calls_in_flight", help: "Calls to payment providers waiting for an answer on this node.",
                         sample: { [([], Double(providers.counts.inFlight))] })
        registry.sampled("shop_payment_calls_refused_total", help: "Provider calls refused at once, by reason (busy: the limit; open: a breaker).",
                         type: "counter", labels: ["reason"], sample: {
            let counts = providers.counts
            return [(["busy"], Double(counts.refusedBusy)), (["open"], Double(counts.refusedOpen))]
        })
    }
}
