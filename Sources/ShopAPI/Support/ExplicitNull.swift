/// An optional the API always spells out: `null` when absent, never a missing key.
///
/// Synthesized `Encodable` leaves a nil `Optional` out (`encodeIfPresent`), but the contract
/// (`API.md`, `openapi.json`) lists these fields on every response. The wrapper itself is never
/// nil, so synthesis writes its key with `encode(_:forKey:)` and the wrapper writes the value or null.
@propertyWrapper
struct ExplicitNull<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension ExplicitNull: Sendable where Value: Sendable {}

/// Reads back what `encode(to:)` writes (tests decode responses into the DTOs): the key must be
/// there, its value may be null.
extension ExplicitNull: Decodable where Value: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}
