import Foundation

// Writes a Swift source that holds each migration file's name and text, so the `shop` binary
// carries its migrations. Usage: EmbedMigrationsTool OUTPUT.swift ENGINE=DIRECTORY...
// The files stay the source of truth; this runs at build time from the EmbedMigrations plugin.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EmbedMigrationsTool: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else { fail("usage: EmbedMigrationsTool OUTPUT.swift ENGINE=DIRECTORY...") }

/// A raw string literal delimiter that the text cannot close early.
func delimiter(for text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains(hashes + "\"") { hashes += "#" }
    return hashes
}

var source = """
    // Generated at build time by EmbedMigrationsTool from the Migrations/ directory. Do not edit:
    // edit (or better, add) a migration file instead.

    /// The migration files, by engine, in file-name order: (file stem, SQL text).
    public enum EmbeddedMigrations {
        public static let files: [String: [(name: String, sql: String)]] = [

    """
for argument in arguments.dropFirst() {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { fail("expected ENGINE=DIRECTORY, got \(argument)") }
    let (engine, directory) = (parts[0], parts[1])
    let names: [String]
    do {
        names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }.sorted()
    } catch {
        fail("cannot list \(directory): \(error)")
    }
    source += "        \"\(engine)\": [\n"
    for name in names {
        guard let text = FileManager.default.contents(atPath: directory + "/" + name)
            .flatMap({ String(data: $0, encoding: .utf8) }) else { fail("cannot read \(directory)/\(name) as UTF-8") }
        let hashes = delimiter(for: text)
        source += "            (\"\(name.dropLast(4))\", \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),\n"
    }
    source += "        ],\n"
}
source += "    ]\n}\n"
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    fail("cannot write \(output): \(error)")
}
