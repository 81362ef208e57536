import CSQLite
import CSQLiteGrams
import SQL

/// How a connection is opened and tuned.
public struct ConnectionOptions: Sendable {
    /// `FULL` makes a committed transaction survive a power loss or a crash of the OS.
    public enum Synchronous: String, Sendable { case off = "OFF", normal = "NORMAL", full = "FULL" }

    public var readOnly: Bool
    public var busyTimeoutMilliseconds: Int
    public var synchronous: Synchronous
    public var walMode: Bool
    /// `PRAGMA mmap_size`: reads of the database file up to this many bytes map its pages rather
    /// than copying each into the connection's cache (0: every page read is a `pread` and a copy).
    public var mmapBytes: Int

    public init(readOnly: Bool = false, busyTimeoutMilliseconds: Int = 5_000,
                synchronous: Synchronous = .full, walMode: Bool = true, mmapBytes: Int = 0) {
        self.readOnly = readOnly
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.synchronous = synchronous
        self.walMode = walMode
        self.mmapBytes = mmapBytes
    }
}

/// One SQLite connection. Not thread-safe: a `DatabasePool` lends it to one closure at a time.
public final class Connection: SQLConnection {
    public let dialect = SQLDialect.sqlite
    let handle: OpaquePointer
    private var statements: [String: Statement] = [:]

    /// Opens (creating if needed) the database at `path`; `":memory:"` for a private in-memory one.
    public init(path: String, options: ConnectionOptions = ConnectionOptions()) throws {
        var handle: OpaquePointer?
        let flags = (options.readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: rc, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        // Product search's FTS5 table names this tokenizer: every connection must know it before
        // the table (or a trigger writing to it) is touched, migrations included.
        let registered = shop_sqlite3_register_grams(handle)
        guard registered == SQLITE_OK else {
            let error = SQLiteError(connection: handle, code: registered, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_busy_timeout(handle, Int32(options.busyTimeoutMilliseconds))
        if options.walMode && !options.readOnly && path != ":memory:" {
            try execute("PRAGMA journal_mode=WAL")
        }
        try execute("PRAGMA foreign_keys=ON")
        try execute("PRAGMA synchronous=\(options.synchronous.rawValue)")
        if options.mmapBytes > 0 && path != ":memory:" {
            try execute("PRAGMA mmap_size=\(options.mmapBytes)")
        }
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without bindings (schema, pragmas, migrations).
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            sqlite3_free(error)
            throw SQLiteError(connection: handle, code: rc, sql: sql)
        }
    }

    /// Runs a script of statements without parameters (a migration file).
    public func execute(script: String) throws {
        try execute(script)
    }

    /// SQLite's write transactions are one at a time already: nothing to take.
    public func serialize(onKeys keys: [String]) throws {}

    /// The shop's SQLite queries name the indexes they need and plan well without statistics
    /// (and ANALYZE over a large file costs seconds), so a bulk change keeps them as they are.
    public func refreshStatistics(of tables: [String]) throws {}

    /// The cached prepared statement for `sql`.
    public func prepare(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows; answers the number of rows it changed.
    @discardableResult
    public func run(_ sql: SQL) throws -> Int {
        let statement = try prepared(sql)
        defer { statement.reset() }
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// All rows of a query.
    public func query(_ sql: SQL) throws -> [Row] {
        let statement = try prepared(sql)
        defer { statement.reset() }
        var rows: [Row] = []
        while try statement.step() { rows.append(statement.currentRow()) }
        return rows
    }

    /// The first row of a query, or nil.
    public func queryOne(_ sql: SQL) throws -> Row? {
        let statement = try prepared(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.currentRow() : nil
    }

    /// The cached statement for the rendered text, with the values bound.
    private func prepared(_ sql: SQL) throws -> Statement {
        let (text, values) = sql.render { _ in "?" }
        let statement = try prepare(text)
        try statement.bind(values)
        return statement
    }

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` inside `BEGIN <kind>` ... `COMMIT`, rolling back if it throws.
    public func transaction<T>(_ kind: String = "IMMEDIATE", _ body: (Connection) throws -> T) throws -> T {
        try execute("BEGIN \(kind)")
        do {
            let result = try body(self)
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }
}
