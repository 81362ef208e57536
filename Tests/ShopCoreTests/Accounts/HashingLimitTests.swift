import Foundation
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Accounts: Argon2 work at once is bounded")
struct HashingLimitTests {
    @Test func noMoreThanTheLimitRunAtOnceAndTheRestQueue() {
        let limit = HashingLimit(limit: 3)
        race(8) { _ in limit.run { Thread.sleep(forTimeInterval: 0.02) } }
        #expect(limit.peak == 3)
        #expect(limit.started == 8)
    }

    @Test func theAutomaticLimitIsHalfTheCoresAndAtLeastOne() {
        #expect(HashingLimit.automatic(cores: 1) == 1)
        #expect(HashingLimit.automatic(cores: 2) == 1)
        #expect(HashingLimit.automatic(cores: 8) == 4)
    }

    @Test func zeroInConfigMeansTheAutomaticLimit() throws {
        let fixture = try TestShop()
        #expect(fixture.config.auth.maxConcurrentHashes == 0)
        #expect(fixture.accounts.credentials.limit.limit == HashingLimit.automatic())
    }

    @Test func aBurstOfValidLoginsHashesAtMostTheConfiguredNumberAtOnce() throws {
        // Costlier than the fixture's default, so unbounded hashes would surely overlap.
        let fixture = try TestShop {
            $0.auth.maxConcurrentHashes = 2
            $0.auth.argon2MemoryKiB = 8_192
        }
        try fixture.register("13800138000")
        let outcomes = Outcomes<Bool>()
        race(8) { index in
            outcomes.record((try? fixture.login("13800138000", from: "10.0.2.\(index)")) != nil)
        }
        #expect(outcomes.count(true) == 8)
        let limit = fixture.accounts.credentials.limit
        #expect(limit.limit == 2)
        #expect(limit.peak <= 2)
        #expect(limit.started >= 9)
    }
}
