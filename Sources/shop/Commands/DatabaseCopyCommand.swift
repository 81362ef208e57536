import DatabaseCopy
import Foundation
import PostgreSQL
import PostgreSQLSearch
import SQL
import SQLite
import ShopCore
import ShopMigrations

/// `shop db copy --to URL`: moves the configured SQLite shop into an empty PostgreSQL database.
struct DatabaseCopyCommand: Command {
    let path = ["db", "copy"]
    let summary = "copy the SQLite shop into an empty PostgreSQL database (--to postgresql://…)"
    let usage = """
        Usage: shop db copy --to postgresql://USER@HOST:PORT/DB [--config PATH]

        Copies every table of the configured SQLite database (database.path, or a sqlite: database.url)
        into the PostgreSQL database at --to: ids, password and token hashes, counters and the
        catalogue version as they are; each id sequence continues after the largest id copied.
        The target is migrated first (a fresh, empty database will do) and must hold no rows;
        the source must have every migration applied (run `shop migrate` first). Everything is
        written in one transaction and each table's row count checked before it commits: a
        copy that fails leaves the target empty. Stop the shop first: the source is read in one
        snapshot, so orders placed during the copy would not move.

        Then point the shop at the new database: database.url (SHOP_DATABASE_URL) = the --to URL.

          --to URL   the PostgreSQL database to fill (libpq URL; PG* variables such as
                     PGPASSWORD apply)
        """
    var valuedOptions: Set<String> { ["to"] }

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "to"])
        guard let to = arguments.option("to"), !to.isEmpty else { throw UsageError(description: say(zh: "需要 --to URL", en: "--to URL is required")) }
        guard case .postgresql(let url)? = DatabaseLocation(url: to) else {
            throw UsageError(description: say(zh: "--to 必须是 postgresql:// URL，而不是“\(to)”", en: "--to must be a postgresql:// URL, not '\(to)'"))
        }
        let config = try ShopEnvironment.config(arguments)
        guard case .sqlite(let sourcePath) = config.databaseLocation else {
            throw UsageError(description: "the configured database is \(config.databaseLocation.redacted): "
                             + "db copy moves a SQLite shop (set database.url to sqlite:PATH or unset it)")
        }
        guard FileManager.default.fileExists(atPath: sourcePath) else {
            throw CommandFailure(description: say(zh: "找不到 SQLite 数据库 \(ShopEnvironment.absolute(sourcePath))", en: "no SQLite database at \(ShopEnvironment.absolute(sourcePath))"))
        }
        let source = try DatabasePool(path: sourcePath, readers: 1)
        let target: PostgreSQL.Pool
        do {
            target = try PostgreSQL.Pool(url: url, size: 1)
        } catch {
            throw CommandFailure(description: say(zh: "无法连接 \(DatabaseLocation.postgresql(url: url).redacted)：\(error)", en: "cannot connect to \(DatabaseLocation.postgresql(url: url).redacted): \(error)"))
        }
        let copy = DatabaseCopy(from: source, to: target, targetMigrator: try Migrator(files: ShopMigrations.postgresql))
        let tables = try copy.run()
        // The copy writes products with triggers off, and SQLite's search index (FTS5) is not a
        // table it copies: PostgreSQL's gram table is built from the copied products.
        try target.write { db in try PostgreSQLSearch().rebuild(db) }
        let width = tables.map(\.name.count).max() ?? 0
        for table in tables {
            print(table.name.padding(toLength: width, withPad: " ", startingAt: 0) + " " + String(table.rows))
        }
        let total = tables.reduce(0) { $0 + $1.rows }
        let filled = DatabaseLocation.postgresql(url: url).redacted
        print(say(zh: "已把 \(tables.count) 张表的 \(total) 行从 sqlite:\(sourcePath) 复制到 \(filled)；行数已核对",
                  en: "copied \(total) rows in \(tables.count) tables from sqlite:\(sourcePath) to \(filled); row counts verified"))
        return 0
    }
}
