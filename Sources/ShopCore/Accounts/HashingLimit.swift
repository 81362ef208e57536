import Foundation
import Synchronization

/// At most `limit` Argon2 computations at once; the others wait their turn. Argon2 is slow and
/// memory-hard on purpose, so a burst of logins would otherwise take every core from the request
/// threads and starve cheap reads such as `GET /categories`.
final class HashingLimit: Sendable {
    let limit: Int
    private let slots: DispatchSemaphore

    private struct Counters {
        var running = 0
        var highest = 0
        var total = 0
    }

    private let counters = Mutex(Counters())

    init(limit: Int) {
        precondition(limit >= 1, "a hashing limit needs at least one slot")
        self.limit = limit
        slots = DispatchSemaphore(value: limit)
    }

    /// Half the cores, at least one: the other half stays free for requests that do not hash.
    static func automatic(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        max(1, cores / 2)
    }

    /// The most computations that ever ran at once.
    var peak: Int {
        counters.withLock { $0.highest }
    }

    /// How many computations have started.
    var started: Int {
        counters.withLock { $0.total }
    }

    /// Runs `body` once a slot is free.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        slots.wait()
        counters.withLock { counters in
            counters.running += 1
            counters.total += 1
            counters.highest = max(counters.highest, counters.running)
        }
        defer {
            counters.withLock { $0.running -= 1 }
            slots.signal()
        }
        return try body()
    }
}
