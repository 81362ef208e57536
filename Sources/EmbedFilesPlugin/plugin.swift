import Foundation
import PackagePlugin

/// Embeds `openapi.json` and the demo shop (`Examples/*`) into the target as generated Swift
/// source at build time, so `shop` serves `/openapi.json` and seeds the demo from any directory
/// while the files stay the source of truth. In ShopCore it embeds the region directory
/// (`Regions/*.tsv`, written by `scripts/regions_from_cpca.py`), the Mandarin readings search matches
/// pinyin with (`Pinyin/*.tsv`, written by `scripts/pinyin_from_unihan.py`) and the default search
/// synonyms (`Config/search_synonyms.txt`) instead.
@main
struct EmbedFilesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        if target.name == "ShopCore" {
            var files: [(name: String, url: URL)] = []
            for folder in ["Regions", "Pinyin"] {
                files += try FileManager.default.contentsOfDirectory(at: root.appending(path: folder), includingPropertiesForKeys: nil)
                    .filter { $0.pathExtension == "tsv" }
                    .sorted { $0.lastPathComponent < $1.lastPathComponent }
                    .map { (name: folder + "/" + $0.lastPathComponent, url: $0) }
            }
            files.append((name: "Config/search_synonyms.txt", url: root.appending(path: "Config/search_synonyms.txt")))
            return [try command(files, context: context)]
        }
        let examples = root.appending(path: "Examples")
        var files: [(name: String, url: URL)] = [("openapi.json", root.appending(path: "openapi.json"))]
        files += try FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)
            .filter { ["csv", "jsonl"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map { ("Examples/" + $0.lastPathComponent, $0) }
        return [try command(files, context: context)]
    }

    /// One run of EmbedFilesTool writing `EmbeddedFiles.swift` with `files` under their names.
    private func command(_ files: [(name: String, url: URL)], context: PluginContext) throws -> Command {
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return .buildCommand(
            displayName: "Embedding \(files.count) files",
            executable: try context.tool(named: "EmbedFilesTool").url,
            arguments: [output.path] + files.map { "\($0.name)=\($0.url.path)" },
            inputFiles: files.map(\.url),
            outputFiles: [output])
    }
}
