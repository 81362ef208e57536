import SQL

/// The client's name for one checkout, so a retry returns the same order: 1 to 64 visible ASCII
/// characters, inner spaces allowed (as the OpenAPI document says).
public struct IdempotencyKey: Hashable, Sendable {
    public static let maxLength = 64

    public let rawValue: String

    /// Checks `text` (the `Idempotency-Key` header, nil when absent); `idempotencyKeyRequired` otherwise.
    public init(_ text: String?) throws(OrderError) {
        guard let text, (1...Self.maxLength).contains(text.unicodeScalars.count),
              text.unicodeScalars.allSatisfy({ (0x20...0x7e).contains($0.value) }),
              text.first != " ", text.last != " " else {
            throw OrderError.idempotencyKeyRequired
        }
        rawValue = text
    }
}

/// Stored as its text.
extension IdempotencyKey: SQLBindable {
    public var sqlValue: SQLValue { .text(rawValue) }
}
