import Dispatch

/// Runs `OrderService.sweep()` on its own timer thread until stopped. The deadlines live in the
/// database, so a restart simply picks up where the last run stopped.
public final class OrderSweeper: @unchecked Sendable {
    private let orders: OrderService
    private let logger: Logger
    private let queue = DispatchQueue(label: "shop.order-sweeper")
    private var timer: (any DispatchSourceTimer)?

    public init(orders: OrderService, logger: Logger) {
        self.orders = orders
        self.logger = logger
    }

    /// Sweeps now, then every `interval` seconds.
    public func start(interval: Int = 30) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: .seconds(interval), leeway: .seconds(1))
        timer.setEventHandler { [weak self] in self?.runOnce() }
        self.timer = timer
        timer.resume()
    }

    /// Stops the timer and waits for a sweep in progress to finish.
    public func stop() {
        timer?.cancel()
        timer = nil
        queue.sync {}
    }

    private func runOnce() {
        do {
            let result = try orders.sweep()
            if result.cancelled > 0 || result.completed > 0 {
                logger.info("orders swept", ["cancelled": String(result.cancelled), "completed": String(result.completed)])
            }
        } catch {
            logger.error("order sweep failed", ["error": String(describing: error)])
        }
    }
}
