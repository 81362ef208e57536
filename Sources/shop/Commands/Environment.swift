import Foundation
import SQL
import SQLite
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

    /// The migrations built into the binary, or the files of `database.migrations_path` when an
    /// operator points it at a folder.
    static func migrator(_ config: Config) throws -> Migrator {
        if config.database.migrationsPath.isEmpty { return try Migrator(files: ShopMigrations.sqlite) }
        return try Migrator(directory: config.database.migrationsPath)
    }

    /// Opens the configured database with the pragmas the shop relies on
    /// (WAL, foreign keys, `synchronous=FULL` so an acknowledged order survives a crash).
    static func openDatabase(_ config: Config) throws -> any Database {
        try DatabasePool(path: config.database.path, readers: config.database.readers,
                         options: ConnectionOptions(synchronous: .full))
    }

    /// Opens the database and migrates it, then composes the shop.
    static func openShop(_ config: Config, logger: Logger) throws -> Shop {
        let migrator = try migrator(config)
        let pool = try openDatabase(config)
        let applied = try migrator.migrate(pool)
        for name in applied { logger.info("migration applied", ["name": name]) }
        return try Shop(pool: pool, config: config, clock: .system, logger: logger, migrator: migrator)
    }

    static func logger(_ config: Config) -> Logger {
        Logger(minimumLevel: config.app.logLevel)
    }
}
