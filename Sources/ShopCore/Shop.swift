import Crypto
import Foundation
import SQLite

/// The composition root of the shop's domain: the database, settings, time, randomness and
/// every service, built once and shared by the HTTP API and the command line.
public final class Shop: Sendable {
    public let pool: DatabasePool
    public let config: Config
    public let clock: Clock
    public let random: SecureRandom
    public let logger: Logger
    public let migrator: Migrator

    public init(pool: DatabasePool, config: Config, clock: Clock = .system, random: SecureRandom = SecureRandom(),
                logger: Logger, migrator: Migrator) {
        self.pool = pool
        self.config = config
        self.clock = clock
        self.random = random
        self.logger = logger
        self.migrator = migrator
    }

    /// Opens the configured database with the pragmas the shop relies on
    /// (WAL, foreign keys, `synchronous=FULL` so an acknowledged order survives a crash).
    public static func openDatabase(_ config: Config) throws -> DatabasePool {
        try DatabasePool(path: config.database.path, readers: config.database.readers,
                         options: ConnectionOptions(synchronous: .full))
    }

    /// Migrations applied unchanged and the database answering: what `/readyz` reports.
    public func isReady() -> Bool {
        do {
            guard try migrator.isUpToDate(pool) else { return false }
            return try pool.read { try $0.scalarInt("SELECT 1") } == 1
        } catch {
            logger.warning("readiness check failed", ["error": String(describing: error)])
            return false
        }
    }
}
