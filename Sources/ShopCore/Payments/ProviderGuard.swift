import Dispatch
import Foundation
import Synchronization

/// Every call this node makes to the payment providers passes here: at most `maxConcurrent` in
/// flight (beyond: `providerBusy`), and a circuit breaker per provider — after `breakerFailures`
/// failures or timeouts in a row the provider is skipped for `breakerSeconds` (`providerUnavailable`
/// at once, instead of another wait for a provider that is down); then one trial call decides.
public final class ProviderGuard: Sendable {
    /// A breaker's state, as the metrics show it.
    public enum BreakerState: String, Sendable {
        case closed, open, halfOpen = "half_open"
    }

    public let maxConcurrent: Int
    public let breakerFailures: Int
    public let breakerSeconds: Double
    /// Monotonic seconds: injected so tests can move past the open period.
    private let now: @Sendable () -> Double

    private struct Breaker {
        var failures = 0
        var openUntil: Double?
        /// A trial call is out; other calls are refused until it ends.
        var trialRunning = false
    }

    private struct State {
        var inFlight = 0
        var breakers: [PaymentProvider: Breaker] = [:]
        var refusedBusy: UInt64 = 0
        var refusedOpen: UInt64 = 0
    }

    private let state = Mutex(State())

    public init(maxConcurrent: Int, breakerFailures: Int, breakerSeconds: Int,
                now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.maxConcurrent = maxConcurrent
        self.breakerFailures = breakerFailures
        self.breakerSeconds = Double(breakerSeconds)
        self.now = now
    }

    /// The limits `settings` name.
    public convenience init(_ settings: Config.Payments) {
        self.init(maxConcurrent: settings.maxConcurrentCalls, breakerFailures: settings.breakerFailures,
                  breakerSeconds: settings.breakerSeconds)
    }

    /// Throws `providerUnavailable` while `provider`'s breaker is open (a cheap check before any work).
    public func checkAvailable(_ provider: PaymentProvider) throws {
        let now = now()
        try state.withLock { state in
            if let until = state.breakers[provider]?.openUntil, now < until {
                state.refusedOpen += 1
                throw PaymentError.providerUnavailable(provider, retryAfter: Self.seconds(until - now))
            }
        }
    }

    /// Runs one call to `provider` within the limits, and feeds its outcome to the breaker: a
    /// thrown timeout or transport error, or an answer `isFailure` judges so, counts as a failure.
    public func call<T>(_ provider: PaymentProvider, isFailure: (T) -> Bool = { _ in false },
                        _ body: () throws -> T) throws -> T {
        let trial = try admit(provider)
        var failed = true
        defer { finish(provider, failed: failed, trial: trial) }
        let result = try body()
        failed = isFailure(result)
        return result
    }

    /// Takes a place for a call, or throws; answers whether it is the trial call of an open breaker.
    private func admit(_ provider: PaymentProvider) throws -> Bool {
        let now = now()
        return try state.withLock { state in
            var breaker = state.breakers[provider] ?? Breaker()
            var trial = false
            if let until = breaker.openUntil {
                guard now >= until, !breaker.trialRunning else {
                    state.refusedOpen += 1
                    throw PaymentError.providerUnavailable(provider, retryAfter: Self.seconds(max(until - now, 1)))
                }
                trial = true
            }
            guard state.inFlight < maxConcurrent else {
                state.refusedBusy += 1
                throw PaymentError.providerBusy(provider)
            }
            if trial { breaker.trialRunning = true }
            state.breakers[provider] = breaker
            state.inFlight += 1
            return trial
        }
    }

    private func finish(_ provider: PaymentProvider, failed: Bool, trial: Bool) {
        let now = now()
        state.withLock { state in
            state.inFlight -= 1
            var breaker = state.breakers[provider] ?? Breaker()
            if trial { breaker.trialRunning = false }
            if failed {
                breaker.failures += 1
                if trial || breaker.failures >= breakerFailures { breaker.openUntil = now + breakerSeconds }
            } else {
                breaker = Breaker()
            }
            state.breakers[provider] = breaker
        }
    }

    /// Whole seconds to wait, at least one.
    private static func seconds(_ interval: Double) -> Int {
        max(1, Int(interval.rounded(.up)))
    }

    /// `provider`'s breaker now.
    public func breakerState(_ provider: PaymentProvider) -> BreakerState {
        let now = now()
        return state.withLock { state in
            guard let breaker = state.breakers[provider], let until = breaker.openUntil else { return .closed }
            if breaker.trialRunning { return .halfOpen }
            // past the open period the next call is the trial
            return now < until ? .open : .halfOpen
        }
    }

    /// Calls in flight now, and the calls refused so far because the limit was reached or a breaker was open.
    public var counts: (inFlight: Int, refusedBusy: UInt64, refusedOpen: UInt64) {
        state.withLock { ($0.inFlight, $0.refusedBusy, $0.refusedOpen) }
    }
}

/// A transport whose every call goes through a `ProviderGuard`: a 5xx answer counts as a failure.
struct GuardedTransport: ProviderTransport {
    let inner: any ProviderTransport
    let guardian: ProviderGuard

    func post(_ url: URL, body: [UInt8], contentType: String, timeout: TimeInterval, provider: PaymentProvider) throws
        -> (status: Int, body: [UInt8]) {
        try guardian.call(provider, isFailure: { $0.status >= 500 }) {
            try inner.post(url, body: body, contentType: contentType, timeout: timeout, provider: provider)
        }
    }
}
