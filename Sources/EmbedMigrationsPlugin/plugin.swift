import Foundation
import PackagePlugin

/// Embeds `Migrations/*.sql` into the target as generated Swift source at build time, so the
/// binary needs no checkout beside it while the files stay the source of truth.
@main
struct EmbedMigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL.appending(path: "Migrations")
        // One folder per engine (`Migrations/sqlite/`, `Migrations/postgresql/`), same numbers.
        let engines = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var files: [URL] = []
        for engine in engines {
            files += try FileManager.default.contentsOfDirectory(at: engine, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "sql" }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [.buildCommand(
            displayName: "Embedding \(files.count) migrations",
            executable: try context.tool(named: "EmbedMigrationsTool").url,
            arguments: [output.path] + engines.map { "\($0.lastPathComponent)=\($0.path)" },
            inputFiles: files.sorted { $0.path < $1.path },
            outputFiles: [output])]
    }
}
