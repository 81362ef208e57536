import CurlClient
import Foundation

/// POSTs through libcurl, blocking the calling thread for at most the timeout, presenting the
/// merchant's client certificate when it has one (WeChat Pay v2's refund API, `/secapi/pay/refund`,
/// is mutual TLS).
public struct CurlTransport: ProviderTransport {
    let identity: CurlClient.Identity?
    let trustedCAPEM: String?

    /// `trustedCAPEM` replaces the system's trust store (tests with a CA of their own).
    public init(identity: CurlClient.Identity? = nil, trustedCAPEM: String? = nil) {
        self.identity = identity
        self.trustedCAPEM = trustedCAPEM
    }

    public func post(_ url: URL, body: [UInt8], contentType: String, timeout: TimeInterval, provider: PaymentProvider) throws
        -> (status: Int, body: [UInt8]) {
        do {
            return try CurlClient.post(url: url.absoluteString, body: body, contentType: contentType,
                                       timeoutMilliseconds: max(1, Int(timeout * 1_000)), identity: identity,
                                       trustedCAPEM: trustedCAPEM, maxAnswerBytes: maxProviderAnswerBytes)
        } catch CurlClient.Failure.timedOut {
            throw PaymentError.providerTimeout(provider)
        } catch CurlClient.Failure.answerTooLarge {
            throw PaymentError.providerError(provider, "answer too large")
        } catch CurlClient.Failure.tls(let reason) {
            // refunds only: the reason goes to the refund's last error and the log, never to a buyer
            throw PaymentError.providerError(provider, "TLS with the client certificate failed: \(reason)")
        } catch {
            throw PaymentError.providerError(provider, "unreachable")
        }
    }
}
