import Foundation

/// How the shop reaches a payment provider's API: one POST, answered within `timeout` or
/// `PaymentError.providerTimeout`. Injected, so tests can point it at fake gateways.
///
/// The shop's transport is `CurlTransport`: one blocking libcurl call on the calling thread (a
/// `payments` bulkhead worker or the sweeper), so calls in flight are exactly the threads waiting,
/// with no pool of the client's own in between (URLSession's shared session let only six
/// connections per host out at once: the rest of `payments.max_concurrent_calls` timed out in its queue).
public protocol ProviderTransport: Sendable {
    /// The answer's status and body; throws `providerTimeout` past `timeout`, `providerError` when
    /// the provider cannot be reached at all.
    func post(_ url: URL, body: [UInt8], contentType: String, timeout: TimeInterval, provider: PaymentProvider) throws
        -> (status: Int, body: [UInt8])
}

/// Answers larger than this are not a provider's.
let maxProviderAnswerBytes = 256 * 1024
