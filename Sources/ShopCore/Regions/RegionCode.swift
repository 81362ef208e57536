import SQL

/// A GB/T 2260 administrative division code: six ASCII digits (`110105` is 北京市朝阳区). It names a
/// division only if the `RegionDirectory` knows it; the shape alone says nothing about that.
public struct RegionCode: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Six ASCII digits, else nil.
    public init?(_ text: String) {
        guard text.utf8.count == 6, text.isASCIIDigits else { return nil }
        rawValue = text
    }

    /// Six ASCII digits, else 400 `validation_failed` naming `field`.
    public init(validating text: String, field: String) throws {
        guard let code = RegionCode(text) else { throw ValidationError(field, .regionCode) }
        self = code
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let code = RegionCode(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a region code is six digits")
        }
        self = code
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: RegionCode, rhs: RegionCode) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}

/// A code binds and decodes as its text; a stored value that is not six digits is a bad row.
extension RegionCode: SQLCodable {
    public var sqlValue: SQLValue { .text(rawValue) }
    public init(sqlValue: SQLValue) throws {
        let text = try String(sqlValue: sqlValue)
        guard let code = RegionCode(text) else { throw SQLValueMismatch(expected: "a region code (six digits)") }
        self = code
    }
}
