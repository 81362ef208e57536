/// Two encodable values written as one flat JSON object: the contract puts an address's postal
/// fields beside its id, and a product's summary fields beside its details, without nesting.
/// Each part's keys must be distinct (the encoder merges both into the same object).
struct Flat<Shared: Encodable, Own: Encodable>: Encodable {
    let shared: Shared
    let own: Own

    init(_ shared: Shared, _ own: Own) {
        self.shared = shared
        self.own = own
    }

    func encode(to encoder: any Encoder) throws {
        try shared.encode(to: encoder)
        try own.encode(to: encoder)
    }
}

extension Flat: Sendable where Shared: Sendable, Own: Sendable {}

/// Reads both parts from the same flat object, as `encode(to:)` writes them.
extension Flat: Decodable where Shared: Decodable, Own: Decodable {
    init(from decoder: any Decoder) throws {
        self.init(try Shared(from: decoder), try Own(from: decoder))
    }
}
