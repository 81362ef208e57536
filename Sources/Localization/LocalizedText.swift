/// Text for people, in every language the shop writes: Simplified Chinese and English.
/// Message templates hold `{name}` placeholders that `filling(_:)` replaces.
public struct LocalizedText: Sendable, Hashable {
    public let zh: String
    public let en: String

    public init(zh: String, en: String) {
        self.zh = zh
        self.en = en
    }

    /// Text that reads the same in every language: a number, a product's own name, a wire field name.
    public static func verbatim(_ text: String) -> LocalizedText {
        LocalizedText(zh: text, en: text)
    }

    public subscript(_ language: Language) -> String {
        switch language {
        case .chinese: zh
        case .english: en
        }
    }

    /// This text with every `{name}` whose name is in `arguments` replaced by that argument, each
    /// language by the same language; other braces are left as they are.
    public func filling(_ arguments: [String: LocalizedText]) -> LocalizedText {
        guard !arguments.isEmpty else { return self }
        return LocalizedText(zh: Self.fill(zh, arguments, \.zh), en: Self.fill(en, arguments, \.en))
    }

    /// The names of the `{name}` placeholders in `text`.
    public static func placeholders(in text: String) -> Set<String> {
        Set(tokens(of: text).compactMap(\.placeholder))
    }

    private static func fill(_ text: String, _ arguments: [String: LocalizedText], _ language: KeyPath<LocalizedText, String>) -> String {
        var out = ""
        for token in tokens(of: text) {
            if let name = token.placeholder, let argument = arguments[name] {
                out += argument[keyPath: language]
            } else {
                out += token.text
            }
        }
        return out
    }

    private struct Token {
        let text: Substring
        /// The name between the braces when the token is a placeholder.
        let placeholder: String?
    }

    /// `text` cut into plain runs and `{name}` placeholders (a name is ASCII letters, digits and `_`).
    private static func tokens(of text: String) -> [Token] {
        var tokens: [Token] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            let name = rest[afterOpen..<close]
            if !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }) {
                if rest.startIndex < open { tokens.append(Token(text: rest[..<open], placeholder: nil)) }
                tokens.append(Token(text: rest[open...close], placeholder: String(name)))
                rest = rest[rest.index(after: close)...]
            } else {
                tokens.append(Token(text: rest[...open], placeholder: nil))
                rest = rest[afterOpen...]
            }
        }
        if !rest.isEmpty { tokens.append(Token(text: rest, placeholder: nil)) }
        return tokens
    }
}
