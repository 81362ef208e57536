/// Text from the database made safe to print: each control character is written the way a Swift
/// literal spells it (`\r`, `\t`, `\n`, `\0`, else `\u{1B}`), so a stored CR or escape sequence
/// never moves the cursor, rewrites a column or recolours the operator's terminal.
enum TerminalText {
    /// `text` with its control characters escaped; a line feed becomes `newline` (`\n` unless given).
    static func escaped(_ text: String, newline: String = "\\n") -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += newline
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            case _ where isControl(scalar): out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0, DEL and C1: what a terminal may act on rather than show.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
