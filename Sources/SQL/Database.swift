/// One connection of an engine, lent to one closure at a time inside a transaction: what a store
/// is given. Statements are `SQL` values; the engine renders their placeholders.
public protocol SQLConnection: AnyObject {
    /// The engine, for the few statements whose SQL differs between them.
    var dialect: SQLDialect { get }
    /// Runs a statement; answers the number of rows it changed.
    @discardableResult
    func run(_ sql: SQL) throws -> Int
    /// All rows of a query.
    func query(_ sql: SQL) throws -> [Row]
    /// The first row of a query, or nil.
    func queryOne(_ sql: SQL) throws -> Row?
    /// Runs a script of statements without parameters (a migration file).
    func execute(script: String) throws
    /// Serialises this write transaction with every other one that names a same key (a buyer's
    /// cart, a phone's attempts) until it ends, so a rule that reads then writes (a cap, a count,
    /// one default) holds under concurrency. Each engine does it its own way (PostgreSQL: an
    /// advisory lock per key; SQLite's write transactions are one at a time already). Call it
    /// as `serialize(on: "cart:7", "cart:9")`.
    func serialize(onKeys keys: [String]) throws
    /// After a bulk change to these tables: brings the planner's statistics up to date where the
    /// engine's plans depend on them (PostgreSQL would otherwise scan every product for a search).
    func refreshStatistics(of tables: [String]) throws
    /// Runs a write whose answer the caller does not need, only its success. An engine may hold
    /// it and send it with the next statement, or with the commit, in one round trip (PostgreSQL:
    /// a pipeline); a failure is then thrown by that later call, and still rolls back the whole
    /// transaction. SQLite, in process, runs it at once.
    func runLater(_ sql: SQL) throws
    /// Runs queries whose answers do not depend on one another and answers each one's rows, in
    /// order; the first failure is thrown and the rest are not run. An engine may send them
    /// together, with anything held, in one round trip (PostgreSQL: a pipeline); SQLite, in
    /// process, runs them one after the other.
    func queries(_ statements: [SQL]) throws -> [[Row]]
    /// Runs the write transaction's last statement, a query whose rows are needed, and may end the
    /// transaction with it: an engine may send the `COMMIT` (and anything held) together with it,
    /// in one round trip (PostgreSQL: a pipeline). Nothing may run on the connection after it. A
    /// failure of the statement or of the commit is thrown and the transaction is rolled back.
    /// SQLite, in process, runs it as `query`, and the transaction commits when the closure returns.
    func queryEnding(_ sql: SQL) throws -> [Row]
}

extension SQLConnection {
    /// Runs it at once: engines without round trips to save.
    public func runLater(_ sql: SQL) throws {
        try run(sql)
    }

    /// One after the other: engines without round trips to save.
    public func queries(_ statements: [SQL]) throws -> [[Row]] {
        try statements.map { try query($0) }
    }

    /// As `query`: engines without round trips to save commit when the closure returns.
    public func queryEnding(_ sql: SQL) throws -> [Row] {
        try query(sql)
    }

    /// `serialize(onKeys:)` with the keys written out.
    public func serialize(on keys: String...) throws {
        try serialize(onKeys: keys)
    }

    /// The first column of the first row as `T`, or nil when there is no row or it is NULL.
    public func scalar<T: SQLDecodable>(_ sql: SQL, as type: T.Type = T.self) throws -> T? {
        guard let row = try queryOne(sql) else { return nil }
        return try row.decode(at: 0, as: T?.self)
    }

    /// `scalar(sql, as: Int64.self)`.
    public func scalarInt(_ sql: SQL) throws -> Int64? {
        try scalar(sql, as: Int64.self)
    }

    /// The rows of `statement` for every element of `values`, run once per chunk of at most
    /// `chunkSize` values: the closure gets the chunk as a bound list (`a, b, c`) to put in an
    /// `IN (…)`. Chunks keep a long list under the engines' parameter limits (PostgreSQL 65,535 a
    /// statement, SQLite 32,766) with room for the statement's own; no statement runs for no values.
    public func query<Value: SQLBindable>(chunking values: [Value], chunkSize: Int = SQL.listChunkSize,
                                          _ statement: (SQL) -> SQL) throws -> [Row] {
        precondition(chunkSize > 0, "a chunk holds at least one value")
        var rows: [Row] = []
        var start = values.startIndex
        while start < values.endIndex {
            let end = min(start + chunkSize, values.endIndex)
            rows += try query(statement("\(list: values[start..<end])"))
            start = end
        }
        return rows
    }

    /// Runs an `INSERT` and answers the new row's `id` (via `RETURNING id`, which both engines have).
    public func insert<ID: SQLDecodable>(_ sql: SQL, returning type: ID.Type = ID.self) throws -> ID {
        guard let id = try scalar(sql + " RETURNING id", as: type) else {
            throw RowDecodingError(table: nil, column: "id", value: nil, reason: "the INSERT returned no id")
        }
        return id
    }
}

/// Which engine a database runs on: a store whose SQL differs between them picks its form by it.
public enum SQLDialect: String, Sendable {
    case sqlite, postgresql
}

/// How much a write transaction must survive once `write` has returned.
public enum Durability: Sendable, Comparable {
    /// It survives the process crashing (the commit is in the engine's log, handed to the OS), but
    /// a power loss or kernel crash may lose the last fraction of a second of such commits: the
    /// engine does not wait for the disk. For state its user simply redoes (a cart line), never
    /// for money, stock or accounts. SQLite: `synchronous=NORMAL` in WAL mode for that commit;
    /// PostgreSQL: `SET LOCAL synchronous_commit = off`.
    case processCrash
    /// It survives a power loss: the commit waits for the disk. The default.
    case powerLoss
}

/// A pool of connections to one database: each use case is one transaction in `write` or `read`.
public protocol Database: Sendable {
    var dialect: SQLDialect { get }
    /// Runs `body` in one write transaction; everything is rolled back if it throws. Durable
    /// against power loss when it returns.
    func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// `write`, asking only for `durability` (an engine may always give more).
    func write<T>(durability: Durability, _ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` in one read-only transaction that sees a single consistent snapshot.
    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// Runs `body` on a reading connection outside any explicit transaction: each statement sees
    /// the database as of its own start, so give it one statement (or statements that need not
    /// agree). It saves `read`'s BEGIN and COMMIT (on PostgreSQL two round trips): for a quick
    /// check such as "did the catalogue move since version N?". Reads only.
    func readEach<T>(_ body: (any SQLConnection) throws -> T) throws -> T
    /// How each of this database's connection pools has lent its connections (for metrics).
    var poolStatistics: [PoolStatistics] { get }
}

extension Database {
    public var poolStatistics: [PoolStatistics] { [] }

    /// Engines without a cheaper way run each statement check in a read transaction.
    public func readEach<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try read(body)
    }

    /// Engines that cannot relax durability give every write the full kind.
    public func write<T>(durability: Durability, _ body: (any SQLConnection) throws -> T) throws -> T {
        try write(body)
    }
}

/// What went wrong in the database, in the engine-neutral terms the shop's rules need (a unique
/// key taken, a check refused, a transaction to retry); the engine's own error stays underneath.
public enum SQLErrorKind: Sendable, Equatable {
    case uniqueViolation
    case checkViolation
    case foreignKeyViolation
    case notNullViolation
    /// The engine gave up on the transaction (serialization failure, deadlock, busy): retrying it may succeed.
    case transient
    /// The connection to the server is gone.
    case connectionLost
    /// No connection of the pool became free within its wait limit: the pool is full.
    case poolExhausted
    case other
}

/// An engine's error, classified.
public protocol SQLError: Error, CustomStringConvertible {
    var kind: SQLErrorKind { get }
}

extension SQLError {
    public var isUniqueViolation: Bool { kind == .uniqueViolation }
    public var isCheckViolation: Bool { kind == .checkViolation }
}
