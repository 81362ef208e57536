#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Synchronization

/// A bounded executor for one kind of slow work: up to `workers` threads of its own (started as
/// work arrives, then kept) and at most `queueLimit` jobs waiting for one. A job that finds it full
/// is refused at once (`reserve` answers false), so a slow dependency fills its own bulkhead and
/// nothing else.
public final class Bulkhead: Sendable {
    public let name: BulkheadName
    public let workers: Int
    public let queueLimit: Int
    /// What a refused caller is told to wait before trying again.
    public let retryAfterSeconds: Int
    /// The workers' nice value (0: as the request threads; 10: they get the CPU only when the
    /// request threads leave it, for CPU-bound work such as hashing).
    public let niceness: Int32

    private struct Job {
        let enqueued: UInt64
        let work: @Sendable () -> Void
    }

    private struct State {
        var queue: [Job] = []
        /// Index of the next job to run in `queue` (the array is compacted when it drains).
        var head = 0
        /// Places taken: jobs reserved, waiting or running.
        var taken = 0
        var running = 0
        /// Threads started, and of those, how many wait for a job.
        var spawned = 0
        var idle = 0
        var stopping = false
        var statistics: BulkheadStatistics
    }

    private let state: Mutex<State>
    /// Counts the jobs in `queue` a worker has not yet taken (and, when stopping, one per worker).
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()

    public init(name: BulkheadName, workers: Int, queueLimit: Int, retryAfterSeconds: Int = 1, niceness: Int32 = 0) {
        precondition(workers >= 1, "a bulkhead needs a worker")
        precondition(queueLimit >= 0, "a queue cannot be shorter than empty")
        self.name = name
        self.workers = workers
        self.queueLimit = queueLimit
        self.retryAfterSeconds = max(1, retryAfterSeconds)
        self.niceness = niceness
        state = Mutex(State(statistics: BulkheadStatistics(name: name.rawValue, workers: workers, queueLimit: queueLimit)))
    }

    /// Takes a place for one job, or answers false (and counts a rejection) when every worker is
    /// busy and the queue is full. A place taken must be used by `run`.
    public func reserve() -> Bool {
        state.withLock { state in
            guard !state.stopping, state.taken < workers + queueLimit else {
                state.statistics.rejected += 1
                return false
            }
            state.taken += 1
            return true
        }
    }

    /// Runs `work` on one of the workers, in a place `reserve` took.
    public func run(reserved work: @escaping @Sendable () -> Void) {
        let spawn = state.withLock { state -> Int? in
            state.queue.append(Job(enqueued: DispatchTime.now().uptimeNanoseconds, work: work))
            guard state.idle < state.queue.count - state.head, state.spawned < workers else { return nil }
            state.spawned += 1
            return state.spawned
        }
        if let spawn { startWorker(spawn) }
        ready.signal()
    }

    private func startWorker(_ number: Int) {
        finished.enter()
        let thread = Thread { [self] in
            RequestThread.work(for: name)
            // on Linux the nice value is per thread, and `who` 0 names the calling one
            if niceness != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
            work()
            finished.leave()
        }
        thread.name = "bulkhead.\(name.rawValue).\(number)"
        thread.start()
    }

    /// `reserve` then `run`: false when the bulkhead is full.
    public func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        guard reserve() else { return false }
        run(reserved: work)
        return true
    }

    /// Jobs waiting, jobs running, and what has happened so far.
    public var statistics: BulkheadStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.running = state.running
            statistics.queued = state.taken - state.running
            return statistics
        }
    }

    /// Refuses new jobs, lets the workers finish what is queued, and waits (at most `timeout`
    /// seconds) for them to end.
    public func shutdown(timeout: TimeInterval = 30) {
        let threads = state.withLock { state -> Int? in
            defer { state.stopping = true }
            return state.stopping ? nil : state.spawned
        }
        guard let threads else { return }
        for _ in 0..<threads { ready.signal() }
        _ = finished.wait(timeout: .now() + timeout)
    }

    private func work() {
        while true {
            state.withLock { $0.idle += 1 }
            ready.wait()
            let job = state.withLock { state -> Job? in
                state.idle -= 1
                guard state.head < state.queue.count else { return nil }
                let job = state.queue[state.head]
                state.head += 1
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                state.running += 1
                state.statistics.waitSeconds += Double(DispatchTime.now().uptimeNanoseconds - job.enqueued) / 1e9
                return job
            }
            // a wake-up without a job is the signal to stop
            guard let job else { return }
            job.work()
            state.withLock { state in
                state.running -= 1
                state.taken -= 1
                state.statistics.completed += 1
            }
        }
    }
}

/// What one bulkhead has done: what an operator watches to see a dependency that is slow (queue
/// depth and time waited grow) or down (rejections).
public struct BulkheadStatistics: Sendable, Equatable {
    public var name: String
    public var workers: Int
    public var queueLimit: Int
    /// Jobs running now.
    public var running = 0
    /// Jobs waiting for a worker now.
    public var queued = 0
    /// Jobs finished so far.
    public var completed: UInt64 = 0
    /// Jobs refused because the bulkhead was full.
    public var rejected: UInt64 = 0
    /// Seconds jobs spent waiting for a worker, all together.
    public var waitSeconds: Double = 0
}
