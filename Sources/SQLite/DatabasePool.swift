import SQL
import Dispatch
import Foundation

/// One writer connection behind a lock plus a pool of reader connections, safe from many threads.
///
/// SQLite allows one writer at a time; serialising writers here (instead of letting them race
/// for the file lock) means in-process writers never see `SQLITE_BUSY`. In WAL mode readers
/// run beside the writer and see the last committed state.
public final class DatabasePool: @unchecked Sendable {
    public let path: String
    private let writer: Connection
    private let writerLock = NSLock()
    private var idleReaders: [Connection]
    private let readersLock = NSLock()
    private let readerSlots: DispatchSemaphore
    private let readsUseWriter: Bool

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
        if readsUseWriter {
            idleReaders = []
            readerSlots = DispatchSemaphore(value: 0)
        } else {
            var readerOptions = options
            readerOptions.walMode = false
            idleReaders = try (0..<readers).map { _ in try Connection(path: path, options: readerOptions) }
            for reader in idleReaders { try reader.execute("PRAGMA query_only=ON") }
            readerSlots = DispatchSemaphore(value: readers)
        }
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`); everything is rolled back if it throws.
    /// Do not call `write` or `read` from inside `body`: use the connection it is given.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        return try writer.transaction("IMMEDIATE", body)
    }

    /// Runs `body` on the writer connection outside any transaction (pragmas, checkpoints, migrations).
    public func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        return try body(writer)
    }

    /// Runs `body` in one read transaction: it sees a single consistent snapshot.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        if readsUseWriter {
            writerLock.lock()
            defer { writerLock.unlock() }
            return try writer.transaction("DEFERRED", body)
        }
        readerSlots.wait()
        readersLock.lock()
        let reader = idleReaders.removeLast()
        readersLock.unlock()
        defer {
            readersLock.lock()
            idleReaders.append(reader)
            readersLock.unlock()
            readerSlots.signal()
        }
        return try reader.transaction("DEFERRED", body)
    }
}
