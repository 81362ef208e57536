import Foundation
import PackagePlugin

/// Embeds `Migrations/*.sql` into the target as generated Swift source at build time, so the
/// binary needs no checkout beside it while the files stay the source of truth.
@main
struct EmbedMigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let migrations = context.package.directoryURL.appending(path: "Migrations")
        let files = try FileManager.default.contentsOfDirectory(at: migrations, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [.buildCommand(
            displayName: "Embedding \(files.count) migrations",
            executable: try context.tool(named: "EmbedMigrationsTool").url,
            arguments: [output.path, "sqlite=\(migrations.path)"],
            inputFiles: files,
            outputFiles: [output])]
    }
}
