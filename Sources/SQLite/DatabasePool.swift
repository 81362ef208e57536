import Bulkheads
import CSQLite
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
    /// Writers queued for the connection (see `write`).
    private let group = Mutex(GroupState())
    /// The group whose transaction is open on the writer: touched only with the writer's turn held.
    private nonisolated(unsafe) var openCommitGroup: CommitGroup?
    /// `synchronous` as opened (what a `.powerLoss` commit gets) and as the writer has it now
    /// (lowered to NORMAL for a group of `.processCrash` writers): touched only with the writer's turn held.
    private let configuredSynchronous: ConnectionOptions.Synchronous
    private nonisolated(unsafe) var writerSynchronous: ConnectionOptions.Synchronous
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
        configuredSynchronous = options.synchronous
        writerSynchronous = options.synchronous
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

    /// Runs `body` in a write transaction; everything it did is rolled back if it throws. It
    /// returns once its changes are committed (durable as `synchronous` promises).
    ///
    /// Group commit: writers take turns on the one writer connection, each inside a savepoint of
    /// a shared transaction. A writer that finishes while others are queued for the connection
    /// leaves the transaction open for them and waits; the last of the group (or the
    /// `maxGroupSize`th) commits for all, so a burst of checkouts shares one fsync. A writer whose
    /// body throws is rolled back to its savepoint alone and returns at once; a failed COMMIT
    /// fails every writer of the group, and none of their changes stays.
    /// Do not call `write` or `read` from inside `body`: use the connection it is given.
    public func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write(durability: .powerLoss, body)
    }

    /// `write`; a group commits with the strongest durability any of its writers asked for.
    /// SQLite fixes `synchronous` for a whole transaction, so a `.powerLoss` writer arriving at
    /// an open group of `.processCrash` writers commits that group first and opens its own.
    public func write<T>(durability: Durability, _ body: (any SQLConnection) throws -> T) throws -> T {
        // The writer's turn is waited for where the request is: it is held for one transaction's
        // statements (the fsync is shared after it), never for anything outside the database.
        RequestThread.noteWrite()
        group.withLock { $0.queued += 1 }
        var outcome: Result<T, any Error>?
        var joined: CommitGroup?
        takeWriterTurn {
            group.withLock { $0.queued -= 1 }
            let current: CommitGroup
            do {
                if let open = openCommitGroup, open.durability < durability { commitOpenGroup() }
                current = try openGroup(durability)
            } catch {
                outcome = .failure(error)
                return
            }
            outcome = runInSavepoint(body)
            if !writer.isInTransaction {
                // SQLite rolled the whole transaction back (disk full, I/O error): the group is lost.
                let error = groupLost(outcome)
                openCommitGroup = nil
                current.finish(.failure(error))
                outcome = .failure(error)
                return
            }
            if case .success = outcome {
                current.members += 1
                joined = current
            }
            // Leave the transaction open only for a writer already queued, so it always ends.
            let someoneWaits = group.withLock { $0.queued > 0 }
            if !someoneWaits || current.members >= Self.maxGroupSize {
                commitOpenGroup()
            }
        }
        if let joined, case .success = outcome {
            try joined.wait()
        }
        guard let outcome else { preconditionFailure("takeWriterTurn always runs its body") }
        return try outcome.get()
    }

    /// The most writers one commit serves, so a steady stream of them still commits regularly.
    public static let maxGroupSize = 32

    /// What the writers queued for the connection and the open group share.
    private struct GroupState {
        var queued = 0
        var commits: UInt64 = 0
    }

    /// Write transactions committed so far: fewer than the `write` calls when group commit shares them.
    public var commitCount: UInt64 { group.withLock { $0.commits } }

    /// Runs `body` in a savepoint of the open transaction: released when it returns, rolled back
    /// to (its changes undone, the others' kept) when it throws.
    private func runInSavepoint<T>(_ body: (any SQLConnection) throws -> T) -> Result<T, any Error> {
        do {
            try writer.run("SAVEPOINT writer")
        } catch {
            return .failure(error)
        }
        do {
            let value = try body(writer)
            try writer.run("RELEASE writer")
            return .success(value)
        } catch {
            if writer.isInTransaction {
                _ = try? writer.run("ROLLBACK TO writer")
                _ = try? writer.run("RELEASE writer")
            }
            return .failure(error)
        }
    }

    /// The group whose transaction is open on the writer, beginning one if none is.
    /// Call with the writer's turn held.
    private func openGroup(_ durability: Durability) throws -> CommitGroup {
        if let open = openCommitGroup { return open }
        // WAL + NORMAL: the commit reaches the log (a process crash keeps it) without an fsync.
        try setSynchronous(durability == .processCrash && configuredSynchronous == .full ? .normal : configuredSynchronous)
        try writer.execute("BEGIN IMMEDIATE")
        let group = CommitGroup(durability: durability)
        openCommitGroup = group
        return group
    }

    /// Commits the open group, if any, and tells its writers how it went. Call with the writer's turn held.
    private func commitOpenGroup() {
        guard let open = openCommitGroup else { return }
        openCommitGroup = nil
        do {
            try writer.execute("COMMIT")
            group.withLock { $0.commits += 1 }
            open.finish(.success(()))
        } catch {
            if writer.isInTransaction { try? writer.execute("ROLLBACK") }
            open.finish(.failure(error))
        }
    }

    /// `PRAGMA synchronous` on the writer, when it differs (it cannot change inside a transaction).
    /// Call with the writer's turn held and no transaction open.
    private func setSynchronous(_ level: ConnectionOptions.Synchronous) throws {
        guard level != writerSynchronous else { return }
        try writer.execute("PRAGMA synchronous=\(level.rawValue)")
        writerSynchronous = level
    }

    private func groupLost<T>(_ outcome: Result<T, any Error>?) -> any Error {
        if case .failure(let error)? = outcome { return error }
        return SQLiteError(code: SQLITE_ABORT, extendedCode: SQLITE_ABORT, message: "the transaction was rolled back by SQLite",
                           sql: nil)
    }

    /// Runs `body` on the writer connection outside any transaction (pragmas, checkpoints, migrations).
    public func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        try onWriter(body)
    }

    /// Runs `body` in one read transaction: it sees a single consistent snapshot.
    public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try withReader { try $0.transaction("DEFERRED", body) }
    }

    /// Runs `body` on a reader in autocommit mode: each statement is its own read transaction.
    public func readEach<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try withReader { try body($0) }
    }

    /// Lends a reader connection (the writer, outside any transaction, for an in-memory database).
    private func withReader<T>(_ body: (Connection) throws -> T) throws -> T {
        if readsUseWriter {
            return try onWriter(body)
        }
        _ = try readerCounters.acquire(readerSlots, timeout: nil)
        let index = idleReaders.withLock { $0.removeLast() }
        defer {
            idleReaders.withLock { $0.append(index) }
            readerCounters.returned()
            readerSlots.signal()
        }
        return try body(readers[index])
    }

    public var poolStatistics: [PoolStatistics] {
        readsUseWriter ? [writerCounters.statistics] : [writerCounters.statistics, readerCounters.statistics]
    }

    /// Lends the writer to `body` outside any transaction, while holding its turn: a group left
    /// open for writers is committed first.
    private func onWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        group.withLock { $0.queued += 1 }
        var outcome: Result<T, any Error>?
        takeWriterTurn {
            group.withLock { $0.queued -= 1 }
            commitOpenGroup()
            outcome = Result {
                try setSynchronous(configuredSynchronous)
                return try body(writer)
            }
        }
        guard let outcome else { preconditionFailure("takeWriterTurn always runs its body") }
        return try outcome.get()
    }

    /// Runs `body` holding the writer's turn, counting whether it had to wait for it.
    private func takeWriterTurn(_ body: () -> Void) {
        let tookAtOnce = writerTurn.withLockIfAvailable { _ -> Bool in
            writerCounters.lent(waited: nil)
            body()
            return true
        } ?? false
        if !tookAtOnce {
            let start = DispatchTime.now().uptimeNanoseconds
            writerTurn.withLock { _ in
                writerCounters.lent(waited: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                body()
            }
        }
        writerCounters.returned()
    }
}

/// The writers whose changes one COMMIT makes durable: each waits for that commit's outcome.
private final class CommitGroup: @unchecked Sendable {
    /// Writers that returned successfully inside this group (touched only with the writer's turn held).
    var members = 0
    /// How durable its commit is: set by the writer that opened it.
    let durability: Durability
    private let outcome = Mutex<Result<Void, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(durability: Durability) {
        self.durability = durability
    }

    /// Records how the commit went and wakes every writer waiting on it (called once).
    func finish(_ result: Result<Void, any Error>) {
        outcome.withLock { $0 = result }
        for _ in 0..<max(members, 1) { done.signal() }
    }

    /// Waits for the commit; throws its error if it failed.
    func wait() throws {
        done.wait()
        let result = outcome.withLock { $0 }
        try result?.get()
    }
}
