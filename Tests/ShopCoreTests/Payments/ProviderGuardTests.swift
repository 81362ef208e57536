import Foundation
import Synchronization
import Testing
@testable import ShopCore

/// The limits and circuit breaker every provider call passes.
@Suite("Provider calls: limit and circuit breaker")
struct ProviderGuardTests {
    /// Seconds that only move when a test says so.
    final class Time: Sendable {
        let seconds = Mutex(1_000.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    static func guardian(_ time: Time, max: Int = 4, failures: Int = 3, seconds: Int = 30) -> ProviderGuard {
        ProviderGuard(maxConcurrent: max, breakerFailures: failures, breakerSeconds: seconds, now: { time.seconds.withLock { $0 } })
    }

    static func timeOut(_ guardian: ProviderGuard, _ provider: PaymentProvider = .wechatpay) {
        _ = try? guardian.call(provider) { () throws -> Int in throw PaymentError.providerTimeout(provider) }
    }

    @Test func afterFailuresInARowTheProviderIsRefusedAtOnceWithoutACall() throws {
        let time = Time()
        let guardian = Self.guardian(time)
        for _ in 0..<3 { Self.timeOut(guardian) }
        #expect(guardian.breakerState(.wechatpay) == .open)
        var called = false
        #expect(throws: PaymentError.providerUnavailable(.wechatpay, retryAfter: 30)) {
            try guardian.call(.wechatpay) { called = true }
        }
        #expect(!called)
        #expect(throws: PaymentError.providerUnavailable(.wechatpay, retryAfter: 30)) { try guardian.checkAvailable(.wechatpay) }
        // other providers are not affected
        #expect(try guardian.call(.alipay) { 7 } == 7)
    }

    @Test func aSuccessBetweenFailuresStartsTheCountAgain() throws {
        let guardian = Self.guardian(Time())
        Self.timeOut(guardian)
        Self.timeOut(guardian)
        _ = try guardian.call(.wechatpay) { 1 }
        Self.timeOut(guardian)
        Self.timeOut(guardian)
        #expect(guardian.breakerState(.wechatpay) == .closed)
    }

    @Test func afterTheOpenPeriodOneTrialCallDecides() throws {
        let time = Time()
        let guardian = Self.guardian(time)
        for _ in 0..<3 { Self.timeOut(guardian) }
        time.advance(31)
        #expect(guardian.breakerState(.wechatpay) == .halfOpen)
        // a failed trial opens it again at once
        Self.timeOut(guardian)
        #expect(guardian.breakerState(.wechatpay) == .open)
        time.advance(31)
        #expect(try guardian.call(.wechatpay) { "ok" } == "ok")
        #expect(guardian.breakerState(.wechatpay) == .closed)
    }

    @Test func whileTheTrialCallIsOutOthersAreRefused() throws {
        let time = Time()
        let guardian = Self.guardian(time)
        for _ in 0..<3 { Self.timeOut(guardian) }
        time.advance(31)
        try guardian.call(.wechatpay) {
            #expect(guardian.breakerState(.wechatpay) == .halfOpen)
            #expect(throws: PaymentError.self) { try guardian.call(.wechatpay) { 1 } }
        }
        #expect(guardian.breakerState(.wechatpay) == .closed)
    }

    @Test func callsBeyondTheLimitAreRefusedAsBusy() throws {
        let guardian = Self.guardian(Time(), max: 2)
        try guardian.call(.wechatpay) {
            try guardian.call(.alipay) {
                #expect(throws: PaymentError.providerBusy(.wechatpay)) { try guardian.call(.wechatpay) { 1 } }
                #expect(guardian.counts.inFlight == 2)
            }
        }
        #expect(guardian.counts.inFlight == 0 && guardian.counts.refusedBusy == 1)
    }

    @Test func a5xxAnswerCountsAsAFailure() throws {
        let guardian = Self.guardian(Time(), failures: 2)
        for _ in 0..<2 { _ = try guardian.call(.alipay, isFailure: { $0 >= 500 }) { 503 } }
        #expect(guardian.breakerState(.alipay) == .open)
    }
}
