import Dispatch
import Foundation
import SQL
import Synchronization

/// One writer connection behind a lock plus a pool of reader connections, safe from many threads.
///
/// SQLite allows one writer at a time; serialising writers here (instead of letting them race
/// for the file lock) means in-process writers never see `SQLITE_BUSY`. In WAL mode readers
/// run beside the writer and see the last committed state.
///
/// Sendable unchecked because a `Connection` wraps a sqlite3 handle opened `NOMUTEX`, which is not
/// Sendable; the pool is what makes sharing it safe. Each connection belongs to one thread at a
/// time, the one running the closure it is lent to: the writer to the holder of `writerTurn`, a
/// reader to the thread that took its index out of `idleReaders` until it puts it back. The
/// bookkeeping itself lives in `Mutex`es, which the compiler checks.
public final class DatabasePool: Database, @unchecked Sendable {
    public let dialect = SQLDialect.sqlite
    public let path: String
    private let writer: Connection
    /// Held for as long as a closure has the writer.
    private let writerTurn = Mutex(())
    private let readers: [Connection]
    /// Indices into `readers` lent to nobody; `readerSlots` counts them, so a thread that passed
    /// the semaphore always finds one.
    private let idleReaders: Mutex<[Int]>
    private let readerSlots: DispatchSemaphore
    private let readsUseWriter: Bool
    private let writerCounters = PoolCounters(name: "writer", size: 1)
    private let readerCounters: PoolCounters

    /// Opens the database at `path` with `readers` reader connections.
    /// An in-memory database (`":memory:"`) has no separate readers: reads share the writer.
    public init(path: String, readers: Int = 4, options: ConnectionOptions = ConnectionOptions()) throws {
        precondition(readers >= 1, "a pool needs at least one reader")
        self.path = path
        if path != ":memory:" {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        writer = try Connection(path: path, options: options)
        readsUseWriter = path == ":memory:"
        readerCounters = PoolCounters(name: "readers", size: readsUseWriter ? 0 : readers)
        if readsUseWriter {
            self.readers = []
            idleReaders = Mutex([])
            readerSlots = DispatchSemaphore(value: 0)
        } else {
            var readerOptions = options
            readerOptions.walMode = false
            self.readers = try (0..<readers).map { _ in try Connection(path: path, options: readerOptions) }
            for reader in self.readers { try reader.execute("PRAGMA query_only=ON") }
            idleReaders = Mutex(Array(0..<readers))
            readerSlots = DispatchSemaphore(value: readers)
        }
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`); everything is rolled back if it throws.
    /// Do not call `write` or `read` from inside `body`: use the connection it is given.
    public func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try onWriter { try $0.transaction("IMMEDIATE", body) }
    }

    /// Runs `body` on the writer connection outside any transaction (pragmas, checkpoints, migrations).
    public func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        try onWriter(body)
    }

    /// Runs `body` in one read transaction: it sees a single consistent snapshot.
    public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        if readsUseWriter {
            return try onWriter { try $0.transaction("DEFERRED", body) }
        }
        _ = readerCounters.acquire(readerSlots, timeout: nil)
        let index = idleReaders.withLock { $0.removeLast() }
        defer {
            idleReaders.withLock { $0.append(index) }
            readerCounters.returned()
            readerSlots.signal()
        }
        return try readers[index].transaction("DEFERRED", body)
    }

    public var poolStatistics: [PoolStatistics] {
        readsUseWriter ? [writerCounters.statistics] : [writerCounters.statistics, readerCounters.statistics]
    }

    /// Lends the writer to `body` while holding its turn. The result is carried out in a local
    /// rather than returned through `withLock`, whose `sending` result a generic `T` cannot meet.
    private func onWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        var outcome: Result<T, any Error>?
        let tookAtOnce = writerTurn.withLockIfAvailable { _ -> Bool in
            writerCounters.lent(waited: nil)
            outcome = Result { try body(writer) }
            return true
        } ?? false
        if !tookAtOnce {
            let start = DispatchTime.now().uptimeNanoseconds
            writerTurn.withLock { _ in
                writerCounters.lent(waited: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                outcome = Result { try body(writer) }
            }
        }
        writerCounters.returned()
        guard let outcome else { preconditionFailure("withLock always runs its body") }
        return try outcome.get()
    }
}
