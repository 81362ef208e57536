import Foundation

/// `search.blocked_words` as posted text is checked against them: both sides NFKC-normalised
/// (full-width `ＱＱ` is `qq`), lower-cased, and with spaces and invisible characters taken out,
/// so `加 微 信` and `加\u{200B}微信` are caught as `加微信` is.
public struct BlockedWords: Sendable {
    private let words: [String]

    public init(_ words: [String]) {
        self.words = words.map(Self.comparable).filter { !$0.isEmpty }
    }

    /// Whether `text` contains any of the words.
    public func occur(in text: String) -> Bool {
        guard !words.isEmpty else { return false }
        let comparable = Self.comparable(text)
        return words.contains { comparable.contains($0) }
    }

    /// The text as words are looked for in it.
    static func comparable(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars
        where !scalar.properties.isWhitespace && scalar.properties.generalCategory != .format {
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
