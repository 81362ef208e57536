import Foundation

/// How user text becomes a search: always a literal, never query syntax.
public enum SearchText {
    /// The longest query accepted, in characters.
    public static let maxLength = 64

    /// The text with control characters turned into spaces and trimmed, or nil when nothing is
    /// left; throws past `maxLength`.
    public static func normalize(_ raw: String?) throws -> String? {
        guard let raw else { return nil }
        guard raw.unicodeScalars.count <= maxLength else {
            throw ValidationError.tooLong("q", max: maxLength)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            scalars.append(scalar.properties.generalCategory == .control ? " " : scalar)
        }
        let text = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The longest keyword that may become hot, in characters.
    static let hotMaxLength = 32

    /// Whether a (normalised) query may be logged for the hot keywords: short, and without control,
    /// format (invisible) or unassigned characters. Blocked words are checked when the list is read.
    static func mayBeHot(_ text: String) -> Bool {
        text.unicodeScalars.count <= hotMaxLength && text.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: false
            default: true
            }
        }
    }

    /// Trigrams need three characters; shorter queries use the gram table.
    static func isShort(_ text: String) -> Bool {
        text.lowercased().unicodeScalars.count < 3
    }

    /// The text as one FTS5 string: `"` doubled inside, so `OR`, `*`, `NEAR(` and quotes are literal.
    static func ftsPhrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A LIKE pattern matching `text` anywhere, with `%`, `_` and `\` escaped (use `ESCAPE '\'`).
    static func likeContains(_ text: String) -> String {
        "%" + likeEscaped(text) + "%"
    }

    /// A LIKE pattern matching values that start with `text`.
    static func likePrefix(_ text: String) -> String {
        likeEscaped(text) + "%"
    }

    static func likeEscaped(_ text: String) -> String {
        var out = ""
        for ch in text {
            if ch == "%" || ch == "_" || ch == "\\" { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    /// Every one- and two-character substring of `text`, lowercased (Unicode scalars, like trigrams).
    static func grams(_ text: String) -> Set<String> {
        let scalars = Array(text.lowercased().unicodeScalars)
        var grams = Set<String>()
        for (index, scalar) in scalars.enumerated() where !scalar.properties.isWhitespace {
            grams.insert(String(scalar))
            if index + 1 < scalars.count, !scalars[index + 1].properties.isWhitespace {
                var pair = String.UnicodeScalarView()
                pair.append(scalar)
                pair.append(scalars[index + 1])
                grams.insert(String(pair))
            }
        }
        return grams
    }
}
