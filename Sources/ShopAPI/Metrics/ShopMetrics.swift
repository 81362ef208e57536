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
