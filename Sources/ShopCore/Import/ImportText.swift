/// The text checks every cell of an import goes through, written for speed: a 100,000-row file
/// has over a million cells, and Foundation's `trimmingCharacters` (a bridge through NSString)
/// and a Unicode property lookup per character were most of an import's time.
enum ImportText {
    /// Without leading and trailing blanks: tabs and the Unicode space separators (Zs), the set
    /// Foundation calls `.whitespaces`. Text that starts and ends with a visible ASCII byte is
    /// returned as it is.
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return "" }
        if isVisibleASCII(first) && isVisibleASCII(last) { return text }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !isBlank($0) }) else { return "" }
        guard let end = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(Substring(scalars[start...end]))
    }

    private static func isVisibleASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == " " || (!scalar.isASCII && scalar.properties.generalCategory == .spaceSeparator)
    }

    /// Whether the text holds a control character (Unicode Cc: U+0000–U+001F, U+007F–U+009F) other
    /// than a line feed, carriage return or tab. Read from the UTF-8 bytes: C1 controls are C2 80–C2 9F.
    static func hasControlCharacters(_ text: String) -> Bool {
        var afterC2 = false
        for byte in text.utf8 {
            if afterC2 && byte >= 0x80 && byte <= 0x9F { return true }
            afterC2 = byte == 0xC2
            if byte < 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 { return true }
            if byte == 0x7F { return true }
        }
        return false
    }

    /// Whether the text has more than `max` characters; no text has more characters than bytes.
    static func isLonger(_ text: String, than max: Int) -> Bool {
        text.utf8.count > max && text.count > max
    }

    /// Whether the text holds white space (an ASCII blank or line break, or a Unicode White_Space scalar).
    static func hasWhitespace(_ text: String) -> Bool {
        var ascii = true
        for byte in text.utf8 {
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { return true }
            if byte >= 0x80 { ascii = false }
        }
        return !ascii && text.unicodeScalars.contains { $0.properties.isWhitespace }
    }

    /// Whether the text is a code: ASCII letters, digits, `-`, `_` and `.` only.
    static func isCode(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
