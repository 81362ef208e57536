import Foundation
import PostgreSQL
import PostgreSQLSearch
import SQL
import ShopCore
import SQLiteSearch

/// Which engine the shop's suites run on: SQLite files by default, PostgreSQL when
/// `SHOP_TEST_POSTGRES_URL` names a server (`make test-postgres` sets it), each shop in a schema
/// of its own.
public enum TestDatabase {
    public static let postgresURL = ProcessInfo.processInfo.environment["SHOP_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether the suites run on PostgreSQL.
    public static var isPostgreSQL: Bool { postgresURL != nil }

    /// The search of the engine the suites run on.
    public static var search: any SearchEngine { isPostgreSQL ? PostgreSQLSearch() : SQLiteSearch() }

    /// `server` with every connection's search path set to `schema`, then `public` (where the
    /// database's one pg_trgm lives: an extension is installed once per database).
    public static func url(_ server: String, searchPath schema: String) -> String {
        server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema),public"
    }

    /// A new test shop schema's name: `ts_<this process's id>_<random>`.
    public static func newSchemaName() -> String {
        "ts_\(getpid())_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// Makes a fresh schema for one shop; its name starts with `ts_`. The first call of a run drops
    /// the `ts_` schemas earlier runs left behind (every call waits for that) and makes sure the
    /// database has pg_trgm. A schema whose process still runs on this machine belongs to another
    /// run going on beside this one (a second engineer on the shared dev cluster) and is left
    /// alone. The PostgreSQL engine's own suite uses `t_` schemas and drops its own, so this
    /// never touches a schema another suite of the same run is using.
    public static func createSchema(_ schema: String, on server: String) throws {
        precondition(schema.hasPrefix("ts_"), "test shop schemas are named ts_…")
        try prepared.get()
        try run(on: server, "CREATE SCHEMA \(schema)")
    }

    private static let prepared: Result<Void, any Error> = Result {
        guard let server = postgresURL else { return }
        let connection = try PostgreSQL.Connection(url: server)
        try connection.execute(script: "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
        let leftovers = try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ts\\_%'")
        for row in leftovers {
            let name = try row.decode("nspname", as: String.self)
            if let owner = ownerProcess(of: name), owner == getpid() || kill(owner, 0) == 0 || errno == EPERM { continue }
            try connection.execute(script: "DROP SCHEMA IF EXISTS \"\(name)\" CASCADE")
        }
    }

    /// The process id in a `ts_<pid>_<random>` name; nil for names without one (older runs).
    static func ownerProcess(of schema: String) -> pid_t? {
        let parts = schema.split(separator: "_")
        guard parts.count == 3, let pid = pid_t(parts[1]) else { return nil }
        return pid
    }

    /// Runs one statement on its own connection (schemas come and go outside any pool).
    static func run(on server: String, _ script: String) throws {
        try PostgreSQL.Connection(url: server).execute(script: script)
    }
}

/// What a test reads about the database's own structure, asked of whichever engine `db` is:
/// SQLite's `sqlite_master` and `pragma_table_info`, PostgreSQL's `information_schema` (in the
/// connection's current schema, i.e. the test shop's own).
extension TestDatabase {
    /// The names of the tables, sorted (SQLite's internal `sqlite_%` tables left out; FTS5
    /// tables and their shadow tables are tables like any other there).
    public static func tables(_ db: any SQLConnection) throws -> [String] {
        let sql: SQL = switch db.dialect {
        case .sqlite:
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        case .postgresql:
            """
            SELECT table_name::text AS name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY name
            """
        }
        return try db.query(sql).map { try $0.string("name") }
    }

    /// The column names of `table`, in the order they were declared.
    public static func columns(of table: String, _ db: any SQLConnection) throws -> [String] {
        let sql: SQL = switch db.dialect {
        case .sqlite:
            "SELECT name FROM pragma_table_info(\(table)) ORDER BY cid"
        case .postgresql:
            """
            SELECT column_name::text AS name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(table) ORDER BY ordinal_position
            """
        }
        let columns = try db.query(sql).map { try $0.string("name") }
        guard !columns.isEmpty else { throw FixtureError("no table \(table)") }
        return columns
    }

    /// The primary key columns of `table`, in key order (empty when it has none).
    public static func primaryKey(of table: String, _ db: any SQLConnection) throws -> [String] {
        let sql: SQL = switch db.dialect {
        case .sqlite:
            "SELECT name FROM pragma_table_info(\(table)) WHERE pk > 0 ORDER BY pk"
        case .postgresql:
            """
            SELECT k.column_name::text AS name
            FROM information_schema.table_constraints c
            JOIN information_schema.key_column_usage k
              ON k.constraint_schema = c.constraint_schema AND k.constraint_name = c.constraint_name
             AND k.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND c.table_name = \(table) AND c.constraint_type = 'PRIMARY KEY'
            ORDER BY k.ordinal_position
            """
        }
        return try db.query(sql).map { try $0.string("name") }
    }

    /// Every row of `table` as its values in column order, ordered by the primary key (by every
    /// column when there is none), so that two reads of the same data compare equal on either engine.
    public static func rows(of table: String, _ db: any SQLConnection) throws -> (columns: [String], rows: [[SQLValue]]) {
        let columns = try columns(of: table, db)
        let key = try primaryKey(of: table, db)
        let order = (key.isEmpty ? columns : key).map { SQL("\(SQLIdentifier($0))") }.joined(separator: ", ")
        let rows = try db.query("SELECT * FROM \(SQLIdentifier(table)) ORDER BY \(order)").map { row in columns.map { row[$0] } }
        return (columns, rows)
    }
}

extension TestDatabase {
    /// Runs `body`, which writes into `table.column` a value no code path writes, past whatever
    /// would refuse it, as a damaged file or a hand edit might hold it. SQLite: CHECK constraints
    /// are ignored for the duration (a column's declared type never refuses a value there).
    /// PostgreSQL has no such switch and stores only values of the column's type: the CHECK
    /// constraints on the column are dropped and a non-text column becomes TEXT, in the test
    /// shop's own schema (so for this one shop only, for good).
    public static func corrupting<T>(_ table: String, column: String, _ db: any SQLConnection, _ body: () throws -> T) throws -> T {
        switch db.dialect {
        case .sqlite:
            try db.execute(script: "PRAGMA ignore_check_constraints = ON")
            defer { try? db.execute(script: "PRAGMA ignore_check_constraints = OFF") }
            return try body()
        case .postgresql:
            let checks = try db.query("""
                SELECT DISTINCT c.conname::text AS name FROM pg_constraint c
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
                WHERE c.conrelid = to_regclass(\(table)) AND c.contype = 'c' AND a.attname = \(column)
                """).map { try $0.string("name") }
            for check in checks {
                try db.run("ALTER TABLE \(SQLIdentifier(table)) DROP CONSTRAINT \(SQLIdentifier(check))")
            }
            let type = try db.scalar("""
                SELECT data_type::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = \(table) AND column_name = \(column)
                """, as: String.self)
            guard let type else { throw FixtureError("no column \(table).\(column)") }
            if type != "text" {
                try db.run("ALTER TABLE \(SQLIdentifier(table)) ALTER COLUMN \(SQLIdentifier(column)) TYPE TEXT")
            }
            return try body()
        }
    }
}

extension TestDatabase {
    /// The settings that point a spawned `shop` at the same database as `config`: the SQLite file
    /// always, and on PostgreSQL the URL (it carries the test schema's search path).
    public static func environment(for config: Config) -> [String: String] {
        var environment = ["SHOP_DATABASE_PATH": config.database.path]
        if !config.database.url.isEmpty { environment["SHOP_DATABASE_URL"] = config.database.url }
        return environment
    }

    /// A fresh schema of its own for a test that runs the `shop` binary without a `TestShop`:
    /// nil on SQLite. `drop()` removes it and everything in it.
    public static func makeSchema() throws -> TestSchema? {
        guard let server = postgresURL else { return nil }
        let name = newSchemaName()
        try createSchema(name, on: server)
        return TestSchema(name: name, url: url(server, searchPath: name), server: server)
    }
}

/// One PostgreSQL schema made for one test; `url` reaches it (search path set).
public struct TestSchema: Sendable {
    public let name: String
    public let url: String
    let server: String

    /// A connection of its own to the schema (autocommit), for reading what a spawned `shop` wrote.
    public func connect() throws -> any SQLConnection {
        try PostgreSQL.Connection(url: url)
    }

    public func drop() {
        try? TestDatabase.run(on: server, "DROP SCHEMA \(name) CASCADE")
    }
}
