import Crypto
import Foundation

/// One migration file: `NNNN_name.sql`.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String
    public var checksum: String { Digest.sha256Hex(sql) }
}

/// What `shop migrate --status` shows for one migration.
public struct MigrationStatus: Sendable, Equatable {
    public enum State: String, Sendable { case applied, pending, modified }
    public let version: Int
    public let name: String
    public let state: State
}

/// Why migrations could not be applied.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
    case directoryNotFound(String)
    case badFileName(String)
    case duplicateVersion(Int)
    case modified(name: String)
    case failed(name: String, reason: String)

    public var description: String {
        switch self {
        case .directoryNotFound(let path): return "migrations directory not found: \(path)"
        case .badFileName(let name): return "migration file name must look like 0001_name.sql: \(name)"
        case .duplicateVersion(let v): return "two migration files share the version \(v)"
        case .modified(let name):
            return "migration \(name) was edited after it was applied (checksum differs); add a new migration instead"
        case .failed(let name, let reason): return "migration \(name) failed: \(reason)"
        }
    }
}

/// Applies numbered `.sql` files in order, one transaction each, recorded with a SHA-256 checksum.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Reads every `NNNN_name.sql` in `directory`.
    public init(directory: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MigrationError.directoryNotFound(directory)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }
        try self.init(files: files.map { file in
            (String(file.dropLast(4)), try String(contentsOfFile: directory + "/" + file, encoding: .utf8))
        })
    }

    /// Migrations from (file stem `NNNN_name`, SQL text) pairs: the files of a directory, or the
    /// copies carried inside the binary.
    public init(files: [(name: String, sql: String)]) throws {
        var seen = Set<Int>()
        var migrations: [Migration] = []
        for (stem, sql) in files {
            guard let underscore = stem.firstIndex(of: "_"), stem[..<underscore].isASCIIDigits,
                  stem.index(after: underscore) < stem.endIndex,
                  let version = Int(stem[..<underscore]), version > 0 else {
                throw MigrationError.badFileName(stem + ".sql")
            }
            guard seen.insert(version).inserted else { throw MigrationError.duplicateVersion(version) }
            migrations.append(Migration(version: version, name: stem, sql: sql))
        }
        self.init(migrations: migrations)
    }

    /// Applies the pending migrations; answers the names applied. Applying twice is a no-op, and
    /// nodes starting together never race: each migration runs in its own write transaction
    /// that first takes the database's migration lock and re-reads what is applied.
    @discardableResult
    public func migrate(_ database: any Database) throws -> [String] {
        try database.write { db in
            try Self.lock(db)
            try Self.ensureTable(db)
            try checkNoneModified(try Self.appliedChecksums(db))
        }
        var done: [String] = []
        for migration in migrations {
            let applied: Bool = try database.write { db in
                try Self.lock(db)
                if let checksum = try Self.appliedChecksums(db)[migration.version] {
                    guard checksum == migration.checksum else { throw MigrationError.modified(name: migration.name) }
                    return false
                }
                do {
                    try db.execute(script: migration.sql)
                } catch let error as any SQLError {
                    throw MigrationError.failed(name: migration.name, reason: error.description)
                }
                try db.run("""
                    INSERT INTO schema_migrations (version, name, checksum, applied_at)
                    VALUES (\(migration.version), \(migration.name), \(migration.checksum), \(Date()))
                    """)
                return true
            }
            if applied { done.append(migration.name) }
        }
        return done
    }

    /// Each known migration and whether it is applied, pending or edited since.
    public func status(_ database: any Database) throws -> [MigrationStatus] {
        try database.write { db in
            try Self.lock(db)
            try Self.ensureTable(db)
            let applied = try Self.appliedChecksums(db)
            return migrations.map { m in
                let state: MigrationStatus.State
                switch applied[m.version] {
                case nil: state = .pending
                case m.checksum?: state = .applied
                default: state = .modified
                }
                return MigrationStatus(version: m.version, name: m.name, state: state)
            }
        }
    }

    /// Whether every known migration is applied unchanged.
    public func isUpToDate(_ database: any Database) throws -> Bool {
        try database.read { db in
            let exists: SQL = switch db.dialect {
            case .sqlite: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
            case .postgresql:
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'"
            }
            guard try db.scalarInt(exists) == 1 else { return false }
            let applied = try Self.appliedChecksums(db)
            return migrations.allSatisfy { applied[$0.version] == $0.checksum }
        }
    }

    private func checkNoneModified(_ applied: [Int: String]) throws {
        for migration in migrations {
            if let checksum = applied[migration.version], checksum != migration.checksum {
                throw MigrationError.modified(name: migration.name)
            }
        }
    }

    /// Serialises migrating nodes: SQLite's write transaction is already exclusive; PostgreSQL
    /// takes a transaction-scoped advisory lock (released at commit or rollback).
    private static func lock(_ db: any SQLConnection) throws {
        if db.dialect == .postgresql {
            _ = try db.query("SELECT pg_advisory_xact_lock(\(Self.advisoryLockKey))")
        }
    }

    /// The advisory lock key of the shop's migrations (any fixed number the shop owns).
    static let advisoryLockKey: Int64 = 0x5348_4F50_4D49_4752

    private static func ensureTable(_ db: any SQLConnection) throws {
        try db.execute(script: """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                checksum TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """)
    }

    private static func appliedChecksums(_ db: any SQLConnection) throws -> [Int: String] {
        var result: [Int: String] = [:]
        for row in try db.query("SELECT version, checksum FROM schema_migrations") {
            result[try row.int("version")] = try row.string("checksum")
        }
        return result
    }
}
