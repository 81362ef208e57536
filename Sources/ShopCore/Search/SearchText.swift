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

    /// How search compares text: ASCII letters folded to lower case, nothing else changed. The same
    /// folding is SQLite's `lower()`, the `shop_grams` tokenizer's and PostgreSQL's `search_fold()`,
    /// so a query finds exactly the products whose folded field contains the folded query, on both
    /// engines. (Full Unicode case folding differs between Swift, SQLite and PostgreSQL; the shop's
    /// Latin text is ASCII brand names and words.)
    public static func fold(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The text as one FTS5 string: `"` doubled inside, so `OR`, `*`, `NEAR(` and quotes are literal.
    public static func ftsPhrase(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A LIKE pattern matching `text` anywhere, with `%`, `_` and `\` escaped (use `ESCAPE '\'`).
    public static func likeContains(_ text: String) -> String {
        "%" + likeEscaped(text) + "%"
    }

    static func likeEscaped(_ text: String) -> String {
        var out = ""
        for ch in text {
            if ch == "%" || ch == "_" || ch == "\\" { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    /// The one- and two-character strings of a product's folded fields (Unicode scalars, as SQL's
    /// `substr` counts), each once, with the first field that holds it (0 title, 1 subtitle,
    /// 2 description): the elements of PostgreSQL's `search_gram_sets` row for the product. Strings
    /// are told apart by their bytes, as the databases do (Swift's `==` would make `é` and `e` +
    /// U+0301 one gram).
    public static func grams(title: String, subtitle: String, description: String) -> [(gram: String, field: Int)] {
        var seen = Set<[UInt8]>()
        var grams: [(gram: String, field: Int)] = []
        for (field, text) in [title, subtitle, description].enumerated() {
            let scalars = Array(fold(text).unicodeScalars)
            for index in scalars.indices {
                var gram = String.UnicodeScalarView()
                gram.append(scalars[index])
                for width in 1...2 {
                    if width == 2 {
                        guard index + 1 < scalars.count else { break }
                        gram.append(scalars[index + 1])
                    }
                    let text = String(gram)
                    if seen.insert(Array(text.utf8)).inserted { grams.append((text, field)) }
                }
            }
        }
        return grams
    }
}
