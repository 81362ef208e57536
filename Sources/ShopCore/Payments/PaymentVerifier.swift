/// Checks one provider's notification over its raw bytes, before anything in it is trusted,
/// and turns it into a `PaymentEvent`.
protocol PaymentVerifier: Sendable {
    var provider: PaymentProvider { get }
    /// `headers` are keyed in lower case.
    func verify(headers: [String: String], body: [UInt8], now: Int64) throws -> PaymentEvent
}
