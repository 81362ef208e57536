import Foundation

/// At most `limit` Argon2 computations at once; the others wait their turn. Argon2 is slow and
/// memory-hard on purpose, so a burst of logins would otherwise take every core from the request
/// threads and starve cheap reads such as `GET /categories`.
final class HashingLimit: @unchecked Sendable {
    let limit: Int
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var running = 0
    private var highest = 0
    private var total = 0

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
        lock.lock()
        defer { lock.unlock() }
        return highest
    }

    /// How many computations have started.
    var started: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    /// Runs `body` once a slot is free.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        slots.wait()
        lock.lock()
        running += 1
        total += 1
        highest = max(highest, running)
        lock.unlock()
        defer {
            lock.lock()
            running -= 1
            lock.unlock()
            slots.signal()
        }
        return try body()
    }
}
