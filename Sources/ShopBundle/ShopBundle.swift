import Foundation

/// What `shop` carries inside its binary besides the migrations: the OpenAPI document and the
/// demo shop (generated from `openapi.json` and `Examples/` at build time by the EmbedFiles
/// plugin), and its version. Nothing here depends on the working directory.
public enum ShopBundle {
    /// The one place the version is written (`shop --version`).
    public static let version = "1.2.0"

    /// `openapi.json` as built into the binary.
    public static var openAPIDocument: [UInt8] { Array((EmbeddedFiles.files["openapi.json"] ?? "").utf8) }

    /// The demo shop's files (`catalog.csv`, `authors.jsonl`, `articles.jsonl`): name → text.
    public static var demoFiles: [String: String] {
        var files: [String: String] = [:]
        for (name, text) in EmbeddedFiles.files where name.hasPrefix("Examples/") {
            files[String(name.dropFirst("Examples/".count))] = text
        }
        return files
    }

    /// Writes the demo files into a new temporary folder and returns its path; the caller removes it.
    public static func writeDemoFiles() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in demoFiles {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder.path
    }
}
