import Dispatch
import Synchronization

/// Runs the outbox's dispatcher on every `shop serve` node, on its own timer thread (as
/// `BackgroundSweeper` does): every `interval` seconds it sends due notices in small batches
/// until none is left or a batch had nothing to send. Outbound calls (the webhook) happen here,
/// bounded by the sender's timeout, never on a request's thread; a slow gateway delays only the
/// notices behind it on this node.
public final class NoticeDispatcher: Sendable {
    private let outbox: NoticeOutbox
    private let logger: Logger
    /// Told after each run how many notices went and failed (the metrics count them).
    private let onRun: (@Sendable (NoticeOutbox.Run) -> Void)?
    private let timer = RepeatingTimer(label: "shop.notice-dispatcher")
    private let stopping = Atomic<Bool>(false)

    public init(outbox: NoticeOutbox, logger: Logger, onRun: (@Sendable (NoticeOutbox.Run) -> Void)? = nil) {
        self.outbox = outbox
        self.logger = logger
        self.onRun = onRun
    }

    /// Sends now, then every `interval` seconds.
    public func start(interval: Int = 2) {
        stopping.store(false, ordering: .relaxed)
        timer.start(every: .seconds(interval), leeway: .milliseconds(200)) { [weak self] in self?.runOnce() }
    }

    /// Stops the timer and waits for the batch in progress; what is left is sent by the next start
    /// (or another node).
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        timer.stop()
    }

    private func runOnce() {
        var total = NoticeOutbox.Run()
        do {
            while !stopping.load(ordering: .relaxed) {
                let run = try outbox.dispatchDue()
                total.sent += run.sent
                total.failed += run.failed
                // a batch that sent nothing (none due, or the gateway failing): wait for the next tick
                if run.sent == 0 { break }
            }
        } catch {
            logger.error("notice dispatch failed", ["error": String(describing: error)])
        }
        if total.sent + total.failed > 0 { onRun?(total) }
    }
}
