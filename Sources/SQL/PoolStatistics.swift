import Bulkheads
import Dispatch
import Synchronization

/// How one pool lent its connections since it was opened: what an operator watches to see a pool
/// that is too small (waits grow) or a database that stalls (time waited grows, timeouts).
public struct PoolStatistics: Sendable, Equatable {
    /// Which pool: `primary`, `replica`, or an engine's own (`writer`, `readers`).
    public var name: String
    /// The most connections it lends at once.
    public var size: Int
    /// Connections lent right now.
    public var inUse: Int
    /// Connections lent so far.
    public var acquisitions: UInt64
    /// Of those, how many had to wait for a free connection.
    public var waits: UInt64
    /// Seconds spent waiting, all waits together.
    public var waitSeconds: Double
    /// Requests for a connection that gave up after the pool's wait limit.
    public var timeouts: UInt64

    public init(name: String, size: Int, inUse: Int = 0, acquisitions: UInt64 = 0, waits: UInt64 = 0,
                waitSeconds: Double = 0, timeouts: UInt64 = 0) {
        self.name = name
        self.size = size
        self.inUse = inUse
        self.acquisitions = acquisitions
        self.waits = waits
        self.waitSeconds = waitSeconds
        self.timeouts = timeouts
    }
}

/// A pool's counters, shared by the threads that borrow from it.
public final class PoolCounters: Sendable {
    private let state: Mutex<PoolStatistics>

    public init(name: String, size: Int) {
        state = Mutex(PoolStatistics(name: name, size: size))
    }

    public var statistics: PoolStatistics { state.withLock { $0 } }

    /// Takes a turn from `semaphore`, counting the wait; false when none came within `timeout`
    /// seconds (nil: wait as long as it takes). On a request thread whose request may still move,
    /// a turn not free at once throws `OffloadRequest` (the `database` bulkhead) instead of waiting.
    public func acquire(_ semaphore: DispatchSemaphore, timeout: Double?) throws -> Bool {
        if semaphore.wait(timeout: .now()) == .success {
            state.withLock { $0.acquisitions += 1; $0.inUse += 1 }
            return true
        }
        try RequestThread.offload(to: .database)
        let start = DispatchTime.now().uptimeNanoseconds
        let acquired: Bool
        if let timeout {
            acquired = semaphore.wait(timeout: .now() + timeout) == .success
        } else {
            semaphore.wait()
            acquired = true
        }
        let waited = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        state.withLock { stats in
            stats.waits += 1
            stats.waitSeconds += waited
            if acquired {
                stats.acquisitions += 1
                stats.inUse += 1
            } else {
                stats.timeouts += 1
            }
        }
        return acquired
    }

    /// Counts a connection lent without a semaphore (a lock taken at once or after `waited` seconds).
    public func lent(waited: Double?) {
        state.withLock { stats in
            stats.acquisitions += 1
            stats.inUse += 1
            if let waited {
                stats.waits += 1
                stats.waitSeconds += waited
            }
        }
    }

    /// A lent connection came back.
    public func returned() {
        state.withLock { $0.inUse -= 1 }
    }
}

/// No connection of a pool became free within its wait limit (every one busy, perhaps on a
/// stalled database): the request should be answered "unavailable, retry", never left hanging.
public struct PoolExhaustedError: SQLError {
    public let pool: String
    public let waitedSeconds: Double

    public init(pool: String, waitedSeconds: Double) {
        self.pool = pool
        self.waitedSeconds = waitedSeconds
    }

    public var kind: SQLErrorKind { .poolExhausted }
    public var description: String {
        "no connection of the \(pool) pool became free within \(waitedSeconds) s"
    }
}
