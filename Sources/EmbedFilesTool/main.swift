import Foundation

// Writes a Swift source that holds files' text under the names given, so the `shop` binary
// carries them (the OpenAPI document, the demo shop). Usage: EmbedFilesTool OUTPUT.swift NAME=PATH...
// The files stay the source of truth; this runs at build time from the EmbedFiles plugin.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EmbedFilesTool: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else { fail("usage: EmbedFilesTool OUTPUT.swift NAME=PATH...") }

/// A raw string literal delimiter that the text cannot close early.
func delimiter(for text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains(hashes + "\"") || text.contains("\\" + hashes) { hashes += "#" }
    return hashes
}

var source = """
    // Generated at build time by EmbedFilesTool. Do not edit: edit the files it names instead.

    /// Files of the source tree carried in the binary: name → UTF-8 text.
    enum EmbeddedFiles {
        static let files: [String: String] = [

    """
for argument in arguments.dropFirst() {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { fail("expected NAME=PATH, got \(argument)") }
    guard let text = FileManager.default.contents(atPath: parts[1]).flatMap({ String(data: $0, encoding: .utf8) }) else {
        fail("cannot read \(parts[1]) as UTF-8")
    }
    let hashes = delimiter(for: text)
    // The literal's text is the file's exactly: the line feeds after the opening and before the closing delimiter are not part of it.
    source += "        \"\(parts[0])\": \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes),\n"
}
source += "    ]\n}\n"
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    fail("cannot write \(output): \(error)")
}
