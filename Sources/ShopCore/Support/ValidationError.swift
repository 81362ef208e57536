/// Input that breaks a documented limit: a 400 `validation_failed` naming the field.
public struct ValidationError: Error, Equatable, Sendable {
    public let field: String
    public let message: String

    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}

/// Small checks shared by every service's validation.
enum Validate {
    /// Length in characters (grapheme clusters), as a person counts them.
    static func length(_ value: String, _ range: ClosedRange<Int>, field: String) throws {
        let count = value.count
        guard range.contains(count) else {
            if range.lowerBound > 0 && count == 0 { throw ValidationError(field, "\(field) must not be empty.") }
            throw ValidationError(field, "\(field) must be \(range.lowerBound) to \(range.upperBound) characters.")
        }
    }

    /// Text without control characters (newlines allowed only where `multiline`).
    static func printable(_ value: String, field: String, multiline: Bool = false) throws {
        let bad = value.unicodeScalars.contains { scalar in
            if multiline && (scalar == "\n" || scalar == "\r" || scalar == "\t") { return false }
            return scalar.properties.generalCategory == .control
        }
        if bad { throw ValidationError(field, "\(field) must not contain control characters.") }
    }

    /// An absolute http(s) URL of at most 512 characters, or empty.
    static func optionalURL(_ value: String, field: String) throws {
        guard !value.isEmpty else { return }
        try length(value, 1...512, field: field)
        let lower = value.lowercased()
        guard (lower.hasPrefix("https://") || lower.hasPrefix("http://")), !value.contains(where: \.isWhitespace) else {
            throw ValidationError(field, "\(field) must be an http(s) URL.")
        }
    }

    /// Page numbers and sizes of list endpoints.
    static func page(_ page: Int, perPage: Int) throws {
        guard page >= 1 else { throw ValidationError("page", "page must be 1 or more.") }
        guard (1...100).contains(perPage) else { throw ValidationError("per_page", "per_page must be 1 to 100.") }
    }
}
