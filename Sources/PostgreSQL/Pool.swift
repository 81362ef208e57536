import Bulkheads
import Dispatch
import Foundation
import SQL
import Synchronization

/// Up to `size` connections to one PostgreSQL database, opened as they are needed and lent to one
/// closure at a time; safe from many threads.
///
/// Sendable unchecked because a `Connection` wraps a `PGconn`, which is not Sendable; the pool is
/// what makes sharing it safe. Each slot belongs to the thread that took its index out of
/// `idleSlots` until it puts it back, and `turns` counts the indices there, so a thread that
/// passed the semaphore always finds one. The bookkeeping lives in a `Mutex`, which the compiler
/// checks.
public final class Pool: Database, @unchecked Sendable {
    public let dialect = SQLDialect.postgresql
    /// The most connections the pool opens (`database.pool_size`).
    public let size: Int
    /// How many times a transaction the server gave up on (serialization failure, deadlock) is
    /// run again before its error is surfaced.
    public let maxRetries: Int
    /// How long a transaction waits for a free connection before `PoolExhaustedError`.
    public let acquireTimeout: Double
    private let url: String
    private let slots: [Slot]
    private let idleSlots: Mutex<[Int]>
    private let turns: DispatchSemaphore
    private let counters: PoolCounters

    /// A pool for the database at `url` (see `Connection.init(url:)`). One connection is opened at
    /// once, so a wrong URL or a server that is down fails here rather than on the first request.
    /// `name` labels its statistics (`primary`, `replica`).
    public init(url: String, size: Int = 10, maxRetries: Int = 3, acquireTimeout: Double = 5,
                name: String = "primary") throws {
        precondition(size >= 1, "a pool needs at least one connection")
        precondition(maxRetries >= 0, "retries cannot be negative")
        precondition(acquireTimeout > 0, "the wait for a connection must be bounded")
        self.url = url
        self.size = size
        self.maxRetries = maxRetries
        self.acquireTimeout = acquireTimeout
        counters = PoolCounters(name: name, size: size)
        slots = (0..<size).map { _ in Slot() }
        slots[0].connection = try Connection(url: url)
        // Taken from the end: slot 0, already open, is lent first.
        idleSlots = Mutex(Array((0..<size).reversed()))
        turns = DispatchSemaphore(value: size)
    }

    /// Runs `body` in one READ COMMITTED write transaction; everything is rolled back if it throws.
    /// Do not call `write` or `read` from inside `body`: use the connection it is given.
    public func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write(isolation: .readCommitted, body)
    }

    /// Runs `body` in one write transaction at `isolation`. When the server gives up on it
    /// (serialization failure, deadlock) the whole closure runs again, up to `maxRetries` times,
    /// so `body` must do nothing outside the database that cannot be repeated.
    public func write<T>(isolation: IsolationLevel, _ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction(isolation: isolation, readOnly: false, body)
    }

    /// A READ COMMITTED write transaction; `.processCrash` commits with `synchronous_commit` off
    /// for this transaction alone (the server acknowledges before its WAL reaches the disk).
    public func write<T>(durability: Durability, _ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction(isolation: .readCommitted, readOnly: false, durability: durability, body)
    }

    /// Runs `body` in one REPEATABLE READ, READ ONLY transaction: it sees a single snapshot, and
    /// the server refuses any write.
    public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction(isolation: .repeatableRead, readOnly: true, body)
    }

    /// Runs `body` in autocommit mode on one connection: each statement is its own transaction
    /// with its own snapshot, so a one-statement check costs one round trip instead of three.
    /// Reads only, so a connection found broken is reopened and `body` run again, once.
    public func readEach<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try lend { connection in
            defer { connection.rollbackIfOpen() }
            do {
                return try body(connection)
            } catch let error as PostgreSQLError where error.kind == .connectionLost {
                guard connection.reset() else { throw error }
                return try body(connection)
            }
        }
    }

    /// Runs `body` on one connection outside any transaction (migrations, `execute(script:)`). A
    /// transaction it leaves open is rolled back before the connection goes back to the pool.
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        try lend { connection in
            defer { connection.rollbackIfOpen() }
            return try body(connection)
        }
    }

    /// Runs `body` on one connection holding the session advisory lock `key`
    /// (`pg_advisory_lock`), waiting for it if another session has it: migrations started by
    /// several nodes at once run one after another.
    public func withAdvisoryLock<T>(key: Int64, _ body: (Connection) throws -> T) throws -> T {
        try withConnection { connection in
            try connection.run("SELECT pg_advisory_lock(\(key))")
            defer {
                // A session lock outlives transactions: end any the body left open (an aborted
                // one would refuse the unlock), then release it before the connection is reused.
                connection.rollbackIfOpen()
                _ = try? connection.run("SELECT pg_advisory_unlock(\(key))")
            }
            return try body(connection)
        }
    }

    /// One transaction on a lent connection, run again when the server gave up on it.
    private func transaction<T>(isolation: IsolationLevel, readOnly: Bool, durability: Durability = .powerLoss,
                                _ body: (any SQLConnection) throws -> T) throws -> T {
        var retries = 0
        while true {
            do {
                return try lend { connection in
                    if !readOnly { RequestThread.noteWrite() }
                    // held, and sent with the first statement: a connection found broken then is
                    // reopened and the statement sent again (see `Connection.begin`)
                    connection.begin(isolation: isolation, readOnly: readOnly,
                                     synchronousCommit: durability != .processCrash)
                    return try connection.inOpenTransaction(body)
                }
            } catch let error as PostgreSQLError where error.kind == .transient && retries < maxRetries {
                retries += 1
                // A little random wait, longer each time, so the same two transactions do not
                // collide again at once.
                Thread.sleep(forTimeInterval: Double.random(in: 0.001...0.010) * Double(retries))
            }
        }
    }

    public var poolStatistics: [PoolStatistics] { [counters.statistics] }

    /// Lends a free connection to `body`, opening it if this slot never was, and reopening it if
    /// it was found broken. When every connection stays busy for `acquireTimeout` seconds (a full
    /// pool, a stalled server) it gives up with `PoolExhaustedError` rather than wait forever.
    private func lend<T>(_ body: (Connection) throws -> T) throws -> T {
        guard try counters.acquire(turns, timeout: acquireTimeout) else {
            throw PoolExhaustedError(pool: counters.statistics.name, waitedSeconds: acquireTimeout)
        }
        let index = idleSlots.withLock { $0.removeLast() }
        defer {
            idleSlots.withLock { $0.append(index) }
            counters.returned()
            turns.signal()
        }
        return try body(try slots[index].ready(url: url))
    }
}

/// One place in the pool: no connection until the first time it is lent.
private final class Slot {
    var connection: Connection?

    /// The slot's connection, usable: opened, or reset when libpq saw it break.
    func ready(url: String) throws -> Connection {
        if let connection {
            if connection.isHealthy || connection.reset() { return connection }
            self.connection = nil
        }
        let connection = try Connection(url: url)
        self.connection = connection
        return connection
    }
}
