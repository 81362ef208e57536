import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// How the shop reaches a payment provider's API: one POST, answered within `timeout` or
/// `PaymentError.providerTimeout`. Injected, so tests can point it at fake gateways.
public protocol ProviderTransport: Sendable {
    /// The answer's status and body; throws `providerTimeout` past `timeout`, `providerError` when
    /// the provider cannot be reached at all.
    func post(_ url: URL, body: [UInt8], contentType: String, timeout: TimeInterval, provider: PaymentProvider) throws
        -> (status: Int, body: [UInt8])
}

/// POSTs with URLSession and waits on the calling worker thread, never past `timeout`: the task
/// is cancelled and the request answered 504, so a silent provider cannot hold a worker.
public struct URLSessionTransport: ProviderTransport {
    /// Answers larger than this are not a provider's.
    static let maxAnswerBytes = 256 * 1024

    public init() {}

    public func post(_ url: URL, body: [UInt8], contentType: String, timeout: TimeInterval, provider: PaymentProvider) throws
        -> (status: Int, body: [UInt8]) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let result = Answer()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            let outcome: Outcome
            if let error {
                outcome = (error as? URLError)?.code == .timedOut ? .timedOut : .failed
            } else {
                outcome = .answer((response as? HTTPURLResponse)?.statusCode ?? 0, Array(data ?? Data()))
            }
            result.value.withLock { $0 = outcome }
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + timeout) == .success else {
            task.cancel()
            throw PaymentError.providerTimeout(provider)
        }
        switch result.value.withLock({ $0 }) {
        case .answer(let status, let answer)?:
            guard answer.count <= Self.maxAnswerBytes else { throw PaymentError.providerError(provider, "answer too large") }
            return (status, answer)
        case .failed?:
            // the transport's own words name our network (hosts, ports): the buyer sees none of it
            throw PaymentError.providerError(provider, "unreachable")
        case .timedOut?, nil:
            throw PaymentError.providerTimeout(provider)
        }
    }

    private enum Outcome: Sendable {
        case answer(Int, [UInt8])
        case timedOut
        case failed
    }

    /// What the completion handler hands to the waiting thread.
    private final class Answer: Sendable {
        let value = Mutex<Outcome?>(nil)
    }
}
