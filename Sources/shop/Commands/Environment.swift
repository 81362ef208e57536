import Foundation
import PostgreSQL
import PostgreSQLSearch
import SQL
import SQLite
import SQLiteSearch
import ShopCore
import ShopMigrations

/// Loads settings and opens the shop the way every command does.
enum ShopEnvironment {
    /// `--config PATH`, else `Config/shop.json` when present, then the environment.
    static func config(_ arguments: Arguments) throws -> Config {
        var path = arguments.option("config")
        if path == nil, FileManager.default.fileExists(atPath: "Config/shop.json") {
            path = "Config/shop.json"
        }
        return try Config.load(path: path)
    }

    /// The migrations of the configured engine built into the binary, or the files of
    /// `database.migrations_path` when an operator points it at a folder.
    static func migrator(_ config: Config) throws -> Migrator {
        if !config.database.migrationsPath.isEmpty { return try Migrator(directory: config.database.migrationsPath) }
        switch config.databaseLocation {
        case .sqlite: return try Migrator(files: ShopMigrations.sqlite)
        case .postgresql: return try Migrator(files: ShopMigrations.postgresql)
        }
    }

    /// Opens the configured database: SQLite with the pragmas the shop relies on (WAL, foreign
    /// keys, `synchronous=FULL` so an acknowledged order survives a crash), or a pool of
    /// `database.pool_size` PostgreSQL connections. A server that cannot be reached stops start-up
    /// with a message naming the key.
    static func openDatabase(_ config: Config) throws -> any Database {
        switch config.databaseLocation {
        case .sqlite(let path):
            return try DatabasePool(path: path, readers: config.database.readers, options: ConnectionOptions(synchronous: .full))
        case .postgresql(let url):
            do {
                return try PostgreSQL.Pool(url: url, size: config.database.poolSize,
                                           acquireTimeout: Double(config.database.poolTimeoutSeconds))
            } catch {
                throw ConfigError(key: "database.url", reason: "cannot connect to \(config.databaseLocation.redacted): \(error)")
            }
        }
    }

    /// The pool of `database.read_url`, when set. A standby that does not answer at start-up is
    /// an error (a typo should not pass silently); once running, reads it cannot serve fall back
    /// to the primary.
    static func openReplica(_ config: Config) throws -> (any Database)? {
        guard let url = try config.readReplicaURL() else { return nil }
        do {
            return try PostgreSQL.Pool(url: url, size: config.database.poolSize,
                                       acquireTimeout: Double(config.database.poolTimeoutSeconds), name: "replica")
        } catch {
            throw ConfigError(key: "database.read_url",
                              reason: "cannot connect to \(DatabaseLocation.postgresql(url: url).redacted): \(error)")
        }
    }

    /// The search that matches the configured engine.
    static func search(_ config: Config) -> any SearchEngine {
        switch config.databaseLocation {
        case .sqlite: SQLiteSearch()
        case .postgresql: PostgreSQLSearch()
        }
    }

    /// Opens the database and migrates it, then composes the shop.
    static func openShop(_ config: Config, logger: Logger) throws -> Shop {
        let migrator = try migrator(config)
        let pool = try openDatabase(config)
        let applied = try migrator.migrate(pool)
        for name in applied { logger.info("migration applied", ["name": name]) }
        let replica = try openReplica(config)
        if replica != nil {
            logger.info("reads that may lag go to the standby",
                        ["read_url": DatabaseLocation.postgresql(url: config.database.readURL).redacted])
        }
        return try Shop(pool: pool, replica: replica, search: search(config), config: config, clock: .system, logger: logger, migrator: migrator)
    }

    static func logger(_ config: Config) -> Logger {
        Logger(minimumLevel: config.app.logLevel, format: config.app.logFormat)
    }
}
