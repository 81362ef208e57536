import Localization

/// Input that breaks a documented limit: a 400 `validation_failed` naming the field. It carries the
/// rule and its limits, not prose: `message` words it in Chinese and English (see `ValidationRule`).
public struct ValidationError: Error, Equatable, Sendable {
    public let field: String
    public let rule: ValidationRule
    /// The rule's limits by placeholder name (`min`, `max`, `other`, `choices`), as the message shows them.
    public let limits: [String: LocalizedText]

    public init(_ field: String, _ rule: ValidationRule, _ limits: [String: LocalizedText] = [:]) {
        self.field = field
        self.rule = rule
        self.limits = limits
    }

    /// What is wrong, naming the field as a person knows it (`数量` in Chinese, `quantity` in English).
    public var message: LocalizedText {
        rule.template.filling(limits.merging(["field": ValidationRule.name(of: field)]) { limit, _ in limit })
    }
}

/// Small checks shared by every service's validation.
enum Validate {
    /// Length in Unicode code points, as JSON Schema (and so the OpenAPI document) counts it.
    static func length(_ value: String, _ range: ClosedRange<Int>, field: String) throws {
        let count = value.unicodeScalars.count
        guard range.contains(count) else {
            if range.lowerBound > 0 && count == 0 { throw ValidationError(field, .empty) }
            if range.lowerBound == 0 { throw ValidationError.tooLong(field, max: range.upperBound) }
            throw ValidationError(field, .length, .range(range))
        }
    }

    /// Text without control characters, apart from those in `allowed` (none by default).
    static func printable(_ value: String, field: String, allowing allowed: Set<Unicode.Scalar> = []) throws {
        let bad = value.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control && !allowed.contains(scalar)
        }
        if bad { throw ValidationError(field, .controlCharacters) }
    }

    /// The one control character a card message or an order note may hold: a bare CR or a tab
    /// would rewrite the florist's terminal line (`shop orders list`/`show`).
    static let lineFeed: Set<Unicode.Scalar> = ["\n"]

    /// Line breaks in either form and tabs: for comments, which are only ever shown as HTML.
    static let lineBreaksAndTabs: Set<Unicode.Scalar> = ["\n", "\r", "\t"]

    /// An absolute http(s) URL of at most 512 characters with no space or control character, a
    /// path of an image the shop serves itself (`/media/demo/rose-red.svg`, see `MediaPath`), or empty.
    static func optionalURL(_ value: String, field: String) throws {
        guard !value.isEmpty else { return }
        try length(value, 1...512, field: field)
        if MediaPath.segments(of: value) != nil { return }
        let lower = value.lowercased()
        let rest = lower.hasPrefix("https://") ? lower.dropFirst(8) : lower.hasPrefix("http://") ? lower.dropFirst(7) : ""
        guard !rest.isEmpty, !rest.unicodeScalars.contains(where: { $0.isBlank || $0.properties.generalCategory == .control }) else {
            throw ValidationError(field, .url)
        }
    }

    /// Page numbers and sizes of list endpoints.
    /// Pages past a million are refused too: the offset of such a page would overflow.
    static func page(_ page: Int, perPage: Int) throws {
        guard (1...1_000_000).contains(page) else { throw ValidationError("page", .range, .range(1...1_000_000)) }
        guard (1...100).contains(perPage) else { throw ValidationError("per_page", .range, .range(1...100)) }
    }
}

extension Unicode.Scalar {
    /// White space as JSON Schema's `\\s` sees it (Unicode White_Space and the BOM).
    var isBlank: Bool { properties.isWhitespace || self == "\u{FEFF}" }
}

extension String {
    /// The text without leading and trailing blanks (see `Unicode.Scalar.isBlank`).
    var trimmedInput: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.isBlank { scalars.removeFirst() }
        while let last = scalars.last, last.isBlank { scalars.removeLast() }
        return String(scalars)
    }
}
