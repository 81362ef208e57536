import SQLite
import ShopCore

/// `shop migrate [--status]`: applies pending migrations, or lists their state.
struct MigrateCommand: Command {
    let path = ["migrate"]
    let summary = "apply the SQL migrations built into shop (or list them with --status)"
    let usage = """
        Usage: shop migrate [--status] [--config PATH]

        Applies every pending migration in order, each in one transaction, recorded with its
        SHA-256. The migrations are the Migrations/NNNN_name.sql files of the source tree, built
        into the binary; database.migrations_path points at a folder of files instead. A migration
        edited after it was applied is an error.

          --status   list each migration as applied, pending or MODIFIED, and change nothing
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], flags: ["status"])
        let config = try ShopEnvironment.config(arguments)
        let migrator = try ShopEnvironment.migrator(config)
        let pool = try ShopEnvironment.openDatabase(config)
        if arguments.flag("status") {
            let statuses = try migrator.status(pool)
            for status in statuses {
                let state = status.state == .modified ? "MODIFIED" : status.state.rawValue
                print("\(state.padding(toLength: 9, withPad: " ", startingAt: 0)) \(status.name)")
            }
            return statuses.contains { $0.state == .modified } ? 1 : 0
        }
        let applied = try migrator.migrate(pool)
        print(applied.isEmpty
              ? say(zh: "数据库已是最新（\(migrator.migrations.count) 个迁移）", en: "database is up to date (\(migrator.migrations.count) migrations)")
              : say(zh: "已执行 \(applied.count) 个迁移：\(applied.joined(separator: ", "))",
                    en: "applied \(applied.count) migration\(applied.count == 1 ? "" : "s"): \(applied.joined(separator: ", "))"))
        return 0
    }
}
