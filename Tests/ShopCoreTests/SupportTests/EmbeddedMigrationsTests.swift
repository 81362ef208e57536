import Foundation
import SQL
import SQLite
import ShopMigrations
import ShopTestSupport
import Testing

@Suite("Migrations built into the binary")
struct EmbeddedMigrationsTests {
    @Test(arguments: [SQLDialect.sqlite, .postgresql])
    func theBuiltInMigrationsAreExactlyTheFilesOfTheSourceTree(_ dialect: SQLDialect) throws {
        let files = try Migrator(directory: Repository.migrations(dialect)).migrations
        let builtIn = try Migrator(files: dialect == .sqlite ? ShopMigrations.sqlite : ShopMigrations.postgresql).migrations
        #expect(!builtIn.isEmpty)
        #expect(builtIn.map(\.name) == files.map(\.name))
        #expect(builtIn.map(\.checksum) == files.map(\.checksum))
    }

    @Test func aShopMigratesFromTheBuiltInCopiesWithNoMigrationsFolder() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("shop.sqlite").path)
        let migrator = try Migrator(files: ShopMigrations.sqlite)
        #expect(try migrator.migrate(pool).count == migrator.migrations.count)
        #expect(try migrator.isUpToDate(pool))
    }

    @Test func badlyNamedOrDuplicatedFilesAreRefused() {
        #expect(throws: MigrationError.badFileName("flowers.sql")) { try Migrator(files: [("flowers", "SELECT 1")]) }
        #expect(throws: MigrationError.duplicateVersion(1)) {
            try Migrator(files: [("0001_a", "SELECT 1"), ("0001_b", "SELECT 2")])
        }
    }
}
