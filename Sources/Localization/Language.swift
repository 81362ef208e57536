/// The languages the shop writes its messages in. Simplified Chinese is the shop's audience, so it
/// is what a client gets unless it asks for English.
public enum Language: String, Sendable, CaseIterable {
    case chinese = "zh-Hans"
    case english = "en"

    /// The language of a client that states no usable preference.
    public static let `default` = Language.chinese

    /// The `Content-Language` value of text in this language.
    public var tag: String { rawValue }

    /// The language a request's `Accept-Language` header prefers (RFC 9110 §12.5.4): of the ranges
    /// naming a language we write, the one with the highest q-value wins, the first listed on a tie.
    /// Any `zh` range (`zh`, `zh-CN`, `zh-Hans`, `zh-TW`) is Chinese, any `en` range is English, and
    /// `*` is the default. A missing, unparsable or unsatisfiable header gives the default.
    public init(acceptLanguage header: String?) {
        self = Self.preferred(header) ?? .default
    }

    private static func preferred(_ header: String?) -> Language? {
        guard let header else { return nil }
        var best: (language: Language, q: Double)?
        var refused = Set<Language>()
        var wildcard: Double?
        for element in header.split(separator: ",") {
            guard let (range, q) = parse(element) else { continue }
            let language: Language
            if range == "*" {
                if wildcard == nil { wildcard = q }
                continue
            } else if let named = named(by: range) {
                language = named
            } else {
                continue
            }
            if q == 0 { refused.insert(language); continue }
            if best.map({ q > $0.q }) ?? true { best = (language, q) }
        }
        // `*` stands for every language not named: the default first, else whichever is left.
        if let wildcard, wildcard > 0, best.map({ wildcard > $0.q }) ?? true {
            let candidates = allCases.filter { !refused.contains($0) && $0 != best?.language }
            if let pick = candidates.contains(.default) ? .default : candidates.first { return pick }
        }
        return best?.language
    }

    /// One `range;q=value` element, the range lowercased; nil when it is not well formed.
    private static func parse(_ element: Substring) -> (range: String, q: Double)? {
        let parts = element.split(separator: ";", omittingEmptySubsequences: false)
        let range = parts[0].trimmingBlanks.lowercased()
        guard range == "*" || isLanguageRange(range) else { return nil }
        var q = 1.0
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, pair[0].trimmingBlanks.lowercased() == "q" else { continue }
            let text = pair[1].trimmingBlanks
            // qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
            guard text.utf8.count <= 5, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }),
                  let value = Double(text), (0...1).contains(value) else { return nil }
            q = value
        }
        return (range, q)
    }

    /// The language a range names by its primary subtag, if we write it.
    private static func named(by range: String) -> Language? {
        let primary = range.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)[0]
        switch primary {
        case "zh": return .chinese
        case "en": return .english
        default: return nil
        }
    }

    /// `1*8ALPHA *("-" 1*8alphanum)` (RFC 4647 §2.1), already lowercased.
    private static func isLanguageRange(_ range: String) -> Bool {
        let subtags = range.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        for (index, subtag) in subtags.enumerated() {
            guard (1...8).contains(subtag.count),
                  subtag.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || (index > 0 && $0 >= 0x30 && $0 <= 0x39) }) else { return false }
        }
        return true
    }
}

extension Substring {
    /// Without the spaces and tabs HTTP allows around list elements and parameters.
    fileprivate var trimmingBlanks: String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
