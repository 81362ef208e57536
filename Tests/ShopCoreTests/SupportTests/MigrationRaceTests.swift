import Foundation
import PostgreSQL
import SQL
import SQLite
import ShopMigrations
import ShopTestSupport
import Testing

/// Several nodes starting together against one database each migrate it: every migration is
/// applied exactly once and none of them fails (PostgreSQL: an advisory lock per migration
/// transaction; SQLite: exclusive write transactions).
@Suite("Migrations: nodes starting together")
struct MigrationRaceTests {
    @Test func fourNodesMigratingOneDatabaseAtOnceApplyEachMigrationOnce() throws {
        let pools: [any Database]
        let migrations: [(name: String, sql: String)]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        if let server = TestDatabase.postgresURL {
            let schema = "ts_race_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try TestDatabase.createSchema(schema, on: server)
            let url = TestDatabase.url(server, searchPath: schema)
            pools = try (0..<4).map { _ in try PostgreSQL.Pool(url: url, size: 2) }
            migrations = ShopMigrations.postgresql
        } else {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("shop.sqlite").path
            pools = try (0..<4).map { _ in try DatabasePool(path: path, readers: 1) }
            migrations = ShopMigrations.sqlite
        }
        let migrator = try Migrator(files: migrations)
        let applied = Outcomes<[String]>()
        race(pools.count) { node in
            do {
                applied.record(try migrator.migrate(pools[node]))
            } catch {
                applied.record(["failed: \(error)"])
            }
        }
        let all = applied.all.flatMap { $0 }
        #expect(all.sorted() == migrator.migrations.map(\.name).sorted(), "each migration once, by some node")
        #expect(try migrator.isUpToDate(pools[0]))
        let recorded = try pools[0].read { db in try db.scalarInt("SELECT COUNT(*) FROM schema_migrations") }
        #expect(recorded == Int64(migrator.migrations.count))
    }
}
