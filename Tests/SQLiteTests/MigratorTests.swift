import Foundation
import SQL
import SQLite
import Testing

@Suite("Migrator")
struct MigratorTests {
    private static let first = """
        CREATE TABLE flowers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO flowers (name) VALUES ('玫瑰');
        """
    /// Needs the table made by 0001: it fails if run first.
    private static let second = """
        ALTER TABLE flowers ADD COLUMN price_cents INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX flowers_price ON flowers (price_cents);
        """

    private func write(_ directory: String, _ file: String, _ sql: String) throws {
        try sql.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
    }

    /// A migrations folder and a database file side by side in one fresh temporary directory.
    @discardableResult
    private func withMigrations<T>(_ files: [(String, String)], _ body: (String, DatabasePool) throws -> T) throws -> T {
        try withTemporaryDirectory { root in
            let migrations = root + "/Migrations"
            try FileManager.default.createDirectory(atPath: migrations, withIntermediateDirectories: true)
            for (file, sql) in files { try write(migrations, file, sql) }
            let pool = try DatabasePool(path: root + "/shop.sqlite")
            return try body(migrations, pool)
        }
    }

    private func recordedVersions(_ pool: DatabasePool) throws -> [Int] {
        try pool.read { db in try db.query("SELECT version FROM schema_migrations ORDER BY version").map { try $0.int("version") } }
    }

    @Test func appliesFilesInVersionOrderWhateverOrderTheyWereWritten() throws {
        try withMigrations([("0002_prices.sql", Self.second), ("0001_flowers.sql", Self.first)]) { directory, pool in
            let migrator = try Migrator(directory: directory)
            #expect(migrator.migrations.map(\.version) == [1, 2])
            #expect(try migrator.migrate(pool) == ["0001_flowers", "0002_prices"])
            #expect(try recordedVersions(pool) == [1, 2])
            let checksums = try pool.read { db throws in
                try db.query("SELECT checksum FROM schema_migrations ORDER BY version").map { try $0.string("checksum") }
            }
            #expect(checksums == migrator.migrations.map(\.checksum))
            #expect(checksums.allSatisfy { $0.count == 64 })
            #expect(try pool.read { try $0.scalarInt("SELECT price_cents FROM flowers WHERE name = '玫瑰'") } == 0)
        }
    }

    @Test func applyingTwiceIsANoOp() throws {
        try withMigrations([("0001_flowers.sql", Self.first), ("0002_prices.sql", Self.second)]) { directory, pool in
            let migrator = try Migrator(directory: directory)
            #expect(try migrator.migrate(pool).count == 2)
            #expect(try migrator.migrate(pool) == [])
            #expect(try Migrator(directory: directory).migrate(pool) == [])
            #expect(try pool.read { try $0.scalarInt("SELECT COUNT(*) FROM flowers") } == 1)
            #expect(try recordedVersions(pool) == [1, 2])
        }
    }

    @Test func onlyNewMigrationsAreAppliedLater() throws {
        try withMigrations([("0001_flowers.sql", Self.first)]) { directory, pool in
            #expect(try Migrator(directory: directory).migrate(pool) == ["0001_flowers"])
            try write(directory, "0002_prices.sql", Self.second)
            #expect(try Migrator(directory: directory).migrate(pool) == ["0002_prices"])
        }
    }

    @Test func aFailingMigrationRollsBackEntirelyAndIsNotRecorded() throws {
        let broken = """
            CREATE TABLE bouquets (id INTEGER PRIMARY KEY);
            INSERT INTO flowers (name) VALUES ('百合');
            INSERT INTO no_such_table (x) VALUES (1);
            """
        try withMigrations([
            ("0001_flowers.sql", Self.first), ("0002_broken.sql", broken), ("0003_prices.sql", Self.second),
        ]) { directory, pool in
            let migrator = try Migrator(directory: directory)
            let error = #expect(throws: MigrationError.self) { try migrator.migrate(pool) }
            guard case .failed(let name, let reason)? = error else {
                Issue.record("expected .failed, got \(String(describing: error))")
                return
            }
            #expect(name == "0002_broken")
            #expect(reason.contains("no_such_table"))
            #expect(try recordedVersions(pool) == [1])
            try pool.read { db throws in
                #expect(try db.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE name = 'bouquets'") == 0)
                #expect(try db.scalarInt("SELECT COUNT(*) FROM flowers") == 1)
                #expect(try db.queryOne("SELECT * FROM flowers")?.has("price_cents") == false)
            }
            #expect(try migrator.status(pool).map(\.state) == [.applied, .pending, .pending])
            #expect(try pool.withWriter { $0.isInTransaction } == false)
        }
    }

    @Test func anAppliedFileEditedAfterwardsIsRefusedAndReportedAsModified() throws {
        try withMigrations([("0001_flowers.sql", Self.first)]) { directory, pool in
            try Migrator(directory: directory).migrate(pool)
            try write(directory, "0001_flowers.sql", Self.first + "\n-- an innocent comment\n")
            try write(directory, "0002_prices.sql", Self.second)
            let edited = try Migrator(directory: directory)
            #expect(throws: MigrationError.modified(name: "0001_flowers")) { try edited.migrate(pool) }
            #expect(try recordedVersions(pool) == [1])
            let status = try edited.status(pool)
            #expect(status.map(\.version) == [1, 2])
            #expect(status.map(\.name) == ["0001_flowers", "0002_prices"])
            #expect(status.map(\.state) == [.modified, .pending])
            #expect(try edited.isUpToDate(pool) == false)
        }
    }

    @Test func statusReportsAppliedAndPending() throws {
        try withMigrations([("0001_flowers.sql", Self.first)]) { directory, pool in
            try Migrator(directory: directory).migrate(pool)
            try write(directory, "0002_prices.sql", Self.second)
            let migrator = try Migrator(directory: directory)
            #expect(try migrator.status(pool).map(\.state) == [.applied, .pending])
            #expect(try migrator.status(pool).map(\.name) == ["0001_flowers", "0002_prices"])
        }
    }

    @Test func isUpToDateOnlyOnceEveryMigrationIsApplied() throws {
        try withMigrations([("0001_flowers.sql", Self.first), ("0002_prices.sql", Self.second)]) { directory, pool in
            let migrator = try Migrator(directory: directory)
            #expect(try migrator.isUpToDate(pool) == false) // no schema_migrations table yet
            try migrator.migrate(pool)
            #expect(try migrator.isUpToDate(pool) == true)
            try write(directory, "0003_more.sql", "CREATE TABLE more (id INTEGER PRIMARY KEY);")
            #expect(try Migrator(directory: directory).isUpToDate(pool) == false)
        }
    }

    @Test("A file name that is not NNNN_name.sql is refused",
          arguments: ["flowers.sql", "0001.sql", "0000_zero.sql", "x001_bad.sql", "-001_negative.sql", "_0001.sql",
                     "00\u{0301}02_mark.sql"])
    func aBadFileNameThrows(_ file: String) throws {
        try withMigrations([("0001_flowers.sql", Self.first), (file, "SELECT 1;")]) { directory, _ throws in
            #expect(throws: MigrationError.badFileName(file)) { try Migrator(directory: directory) }
        }
    }

    @Test func filesThatAreNotSQLAreIgnored() throws {
        try withMigrations([("0001_flowers.sql", Self.first), ("README.md", "notes"), (".0002_x.sql.swp", "")]) { directory, _ throws in
            #expect(try Migrator(directory: directory).migrations.map(\.name) == ["0001_flowers"])
        }
    }

    @Test func twoFilesWithTheSameVersionThrow() throws {
        try withMigrations([("0001_flowers.sql", Self.first), ("1_other.sql", "SELECT 1;")]) { directory, _ throws in
            #expect(throws: MigrationError.duplicateVersion(1)) { try Migrator(directory: directory) }
        }
    }

    @Test func aMissingDirectoryThrows() throws {
        try withTemporaryDirectory { root throws in
            #expect(throws: MigrationError.directoryNotFound(root + "/nope")) { try Migrator(directory: root + "/nope") }
        }
    }

    @Test func theRepositoryMigrationsApplyToAFreshDatabase() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let migrator = try Migrator(directory: repository.appendingPathComponent("Migrations/sqlite").path)
        try #require(!migrator.migrations.isEmpty)
        try withTemporaryPool { pool throws in
            #expect(try migrator.migrate(pool).count == migrator.migrations.count)
            #expect(try migrator.isUpToDate(pool))
            #expect(try pool.read { try $0.scalarInt("PRAGMA foreign_key_check") } == nil)
        }
    }
}
