import Dispatch
import Synchronization

/// A timer on a serial queue of its own, what the background services (`BackgroundSweeper`,
/// `NoticeDispatcher`, `SearchTermsWarmer`) run on: `work` at once, then every `interval`, one run
/// at a time, until `stop`.
final class RepeatingTimer: Sendable {
    private let queue: DispatchQueue
    /// Set by `start`, cleared by `stop`, which may run on other threads than the runs.
    private let timer = Mutex<(any DispatchSourceTimer)?>(nil)

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func start(every interval: DispatchTimeInterval, leeway: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
        timer.withLock { timer in
            let made = DispatchSource.makeTimerSource(queue: queue)
            made.schedule(deadline: .now(), repeating: interval, leeway: leeway)
            made.setEventHandler(handler: work)
            timer = made
            made.resume()
        }
    }

    /// Stops the timer and waits for a run in progress to finish.
    func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        queue.sync {}
    }
}
