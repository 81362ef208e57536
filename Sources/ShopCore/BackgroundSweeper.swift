/// The shop's background work on its own timer thread, through the same services as requests:
/// asking the payment providers about unpaid orders past their deadline that have a payment
/// started, then cancelling those still unpaid (returning stock), sending and confirming refunds,
/// completing long-shipped
/// orders, and dropping spent codes, tokens, failure records, old search logs and old view logs. The deadlines
/// live in the database, so a restart simply picks up where the last run stopped.
public final class BackgroundSweeper: Sendable {
    private let shop: Shop
    private let logger: Logger
    /// Told after every sweep whether it succeeded (the metrics count runs).
    private let onRun: (@Sendable (_ succeeded: Bool) -> Void)?
    private let timer = RepeatingTimer(label: "shop.background-sweeper")

    public init(shop: Shop, logger: Logger, onRun: (@Sendable (_ succeeded: Bool) -> Void)? = nil) {
        self.shop = shop
        self.logger = logger
        self.onRun = onRun
    }

    /// Sweeps now, then every `interval` seconds.
    public func start(interval: Int = 30) {
        timer.start(every: .seconds(interval), leeway: .seconds(1)) { [weak self] in self?.runOnce() }
    }

    /// Stops the timer and waits for a sweep in progress to finish.
    public func stop() {
        timer.stop()
    }

    private func runOnce() {
        do {
            // a lost notification must not cancel a paid order: ask the provider first
            let held = try shop.payments.settleExpiredOrders()
            let result = try shop.orders.sweep(holding: held)
            if result.cancelled > 0 || result.completed > 0 {
                logger.info("orders swept", ["cancelled": String(result.cancelled), "completed": String(result.completed)])
            }
            let refunded = try shop.payments.processRefunds()
            if refunded > 0 { logger.info("refunds confirmed", ["count": String(refunded)]) }
            try shop.verification.purgeSpentCodes()
            try shop.accounts.purgeSpentRecords()
            try shop.staff.purgeSpentRecords()
            try shop.couponAttempts.purgeSpentRecords()
            try shop.catalog.purgeSearchLog()
            try shop.articles.purgeViewLog()
            onRun?(true)
        } catch {
            logger.error("background sweep failed", ["error": String(describing: error)])
            onRun?(false)
        }
    }
}
