import Foundation
import ThreadTestSupport
import SQLite

/// A fresh directory under the system temporary directory, removed when `body` returns.
@discardableResult
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("floral-sqlite-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// A pool over a new database file in a fresh temporary directory, deleted afterwards.
@discardableResult
func withTemporaryPool<T>(readers: Int = 4, _ body: (DatabasePool) throws -> T) throws -> T {
    try withTemporaryDirectory { directory in
        let pool = try DatabasePool(path: directory + "/test.sqlite", readers: readers)
        return try body(pool)
    }
}

/// Runs `body` on a new thread; the semaphore is signalled when it returns.
func onNewThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return done
}

extension DispatchSemaphore {
    /// Waits up to `seconds`; true when signalled in time.
    func waits(_ seconds: Double = 10) -> Bool {
        wait(timeout: .now() + seconds) == .success
    }
}

extension DatabasePool {
    /// A write transaction on the SQLite `Connection` itself, for tests of what only SQLite's
    /// connection has (its statement cache, `lastInsertRowID`, multi-statement errors).
    func writeSQLite<T>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { try $0.transaction("IMMEDIATE", body) }
    }
}
