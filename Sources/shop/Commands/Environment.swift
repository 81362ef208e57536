import Foundation
import Images
import PostgreSQL
import PostgreSQLSearch
import SQL
import Synchronization
import SQLite
import ShopAPI
import SQLiteSearch
import ShopCore
import ShopMigrations

/// Loads settings and opens the shop the way every command does.
enum ShopEnvironment {
    /// The shop's settings (`settings(_:)` without the HTTP server's).
    static func config(_ arguments: Arguments) throws -> Config {
        try settings(arguments).shop
    }

    /// `--config PATH` (which must exist), else `Config/shop.json` of the working directory when
    /// present, else the built-in defaults; then the environment. `-v` says which.
    static func settings(_ arguments: Arguments) throws -> ShopSettings {
        var path = arguments.option("config")
        if let path, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(description: say(zh: "找不到配置文件 \(absolute(path))（--config）",
                                                  en: "no config file at \(absolute(path)) (--config)"))
        }
        if path == nil, FileManager.default.fileExists(atPath: "Config/shop.json") {
            path = "Config/shop.json"
        }
        let settings = try ShopSettings.load(path: path)
        let config = settings.shop
        verbose(path.map { say(zh: "配置：\(absolute($0))", en: "config: \(absolute($0))") }
                ?? say(zh: "配置：内置默认值（\(absolute("Config/shop.json")) 不存在）",
                       en: "config: built-in defaults (no \(absolute("Config/shop.json")))"))
        verbose(say(zh: "数据库：\(describe(config.databaseLocation))", en: "database: \(describe(config.databaseLocation))"))
        return settings
    }

    /// `path` from the working directory, as an operator can look it up.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The database for messages: a SQLite file by its absolute path, a PostgreSQL URL without its password.
    static func describe(_ location: DatabaseLocation) -> String {
        switch location {
        case .sqlite(let path): "sqlite:\(absolute(path))"
        case .postgresql: location.redacted
        }
    }

    /// Opens the configured database only when it is a shop already: a SQLite file that exists and
    /// a database (either engine) with migrations applied. Anything else is a failure naming where
    /// it looked, so a command run from the wrong folder never creates an empty shop.
    static func openExistingDatabase(_ config: Config) throws -> any Database {
        let hint = say(zh: "先运行 `shop migrate` 新建数据库，或在商店目录中运行，或用 --config / SHOP_DATABASE_URL 指定数据库",
                       en: "run `shop migrate` to create it, run shop from the shop's folder, or name it with --config or SHOP_DATABASE_URL")
        if case .sqlite(let path) = config.databaseLocation, !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(description: say(zh: "找不到商店数据库 \(absolute(path))：\(hint)",
                                                  en: "no shop database at \(absolute(path)): \(hint)"))
        }
        let pool = try openDatabase(config)
        let migrated = try pool.read { db in
            let exists: SQL = switch db.dialect {
            case .sqlite: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
            case .postgresql:
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'"
            }
            guard try db.scalarInt(exists) == 1 else { return false }
            return try db.scalarInt("SELECT COUNT(*) FROM schema_migrations") ?? 0 > 0
        }
        guard migrated else {
            throw CommandFailure(description: say(zh: "\(describe(config.databaseLocation)) 不是商店数据库（没有执行过迁移）：\(hint)",
                                                  en: "\(describe(config.databaseLocation)) is not a shop database (no migrations applied): \(hint)"))
        }
        return pool
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
            return try DatabasePool(path: path, readers: config.database.readers, options: ConnectionOptions(synchronous: .full, mmapBytes: config.database.sqliteMmapMB << 20))
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

    /// Opens the database and migrates it, then composes the shop. Only `serve` and `seed` may
    /// `create` the database; every other command needs an existing shop (`openExistingDatabase`).
    static func openShop(_ config: Config, logger: Logger, create: Bool = false) throws -> Shop {
        let migrator = try migrator(config)
        let pool = try create ? openDatabase(config) : openExistingDatabase(config)
        let applied = try migrator.migrate(pool)
        for name in applied { logger.info("migration applied", ["name": name]) }
        let replica = try openReplica(config)
        if replica != nil {
            logger.info("reads that may lag go to the standby",
                        ["read_url": DatabaseLocation.postgresql(url: config.database.readURL).redacted])
        }
        return try Shop(pool: pool, replica: replica, search: search(config), config: config, notifyURL: PaymentWebhooks.notifyURL,
                        clock: .system, logger: logger, migrator: migrator, images: try VipsImageProcessor())
    }

    /// On PostgreSQL, what keeps `shop.catalogVersions` current on a serving node: it listens for
    /// the catalogue's change notifications and reads the versions after each, and on a heartbeat
    /// (logging when reading them starts and stops failing). Nil on SQLite.
    static func catalogListener(_ shop: Shop, config: Config, logger: Logger) -> NotificationListener? {
        guard let versions = shop.catalogVersions, case .postgresql(let url) = config.databaseLocation else { return nil }
        let failing = Mutex(false)
        return NotificationListener(url: url, channel: PushedCatalogVersions.channel,
                                    heartbeatMilliseconds: PushedCatalogVersions.heartbeatMilliseconds) { _ in
            do {
                try versions.refresh()
                if failing.withLock({ was in defer { was = false }; return was }) {
                    logger.info("catalogue versions are read again; kept pages need no statement")
                }
            } catch {
                if !failing.withLock({ was in defer { was = true }; return was }) {
                    logger.warning("cannot read the catalogue versions; kept pages are checked against the database",
                                   ["error": String(describing: error)])
                }
            }
        }
    }

    static func logger(_ config: Config) -> Logger {
        Logger(minimumLevel: config.app.logLevel, format: config.app.logFormat)
    }
}
