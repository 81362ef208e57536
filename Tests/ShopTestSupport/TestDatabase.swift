import Foundation
import PostgreSQL
import SQL

/// Which engine the shop's suites run on: SQLite files by default, PostgreSQL when
/// `SHOP_TEST_POSTGRES_URL` names a server (`make test-postgres` sets it), each shop in a schema
/// of its own.
public enum TestDatabase {
    public static let postgresURL = ProcessInfo.processInfo.environment["SHOP_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether the suites run on PostgreSQL.
    public static var isPostgreSQL: Bool { postgresURL != nil }

    /// `server` with every connection's search path set to `schema`, then `public` (where the
    /// database's one pg_trgm lives: an extension is installed once per database).
    public static func url(_ server: String, searchPath schema: String) -> String {
        server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema),public"
    }

    /// Makes a fresh schema for one shop. The first call of a run drops the schemas earlier runs
    /// left behind and makes sure the database has pg_trgm.
    public static func createSchema(_ schema: String, on server: String) throws {
        try prepared.get()
        try run(on: server, "CREATE SCHEMA \(schema)")
    }

    private static let prepared: Result<Void, any Error> = Result {
        guard let server = postgresURL else { return }
        let connection = try PostgreSQL.Connection(url: server)
        try connection.execute(script: "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
        let leftovers = try connection.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%'")
        for row in leftovers {
            try connection.execute(script: "DROP SCHEMA \"\(try row.decode("nspname", as: String.self))\" CASCADE")
        }
    }

    /// Runs one statement on its own connection (schemas come and go outside any pool).
    static func run(on server: String, _ script: String) throws {
        try PostgreSQL.Connection(url: server).execute(script: script)
    }
}
