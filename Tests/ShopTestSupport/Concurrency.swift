import Foundation

/// Collects what racing threads saw, from any thread.
public final class Outcomes<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Value] = []

    public init() {}

    public func record(_ result: Value) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }

    public var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}

extension Outcomes where Value: Equatable {
    public func count(_ result: Value) -> Int { all.filter { $0 == result }.count }
}

/// Runs `body` on `count` threads released together, and waits for all of them.
public func race(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            start.wait()
            body(index)
            done.leave()
        }.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}
