@testable import ShopAPI
import Testing

@Suite("Catalogue response cache: bounds and eviction")
struct ResponseCacheTests {
    private func representation(_ size: Int, _ fill: UInt8 = 0x61) -> Representation {
        Representation(body: [UInt8](repeating: fill, count: size))
    }

    @Test func theCacheNeverHoldsMoreEntriesOrBytesThanItsLimits() {
        let cache = ResponseCache<Int>(limits: .init(entries: 8, bytes: 16 * 100))
        for key in 0..<100 {
            cache.store(representation(60 + key % 40), for: key, at: 1)
            #expect(cache.size.entries <= 8)
            #expect(cache.size.bytes <= 1_600)
        }
        let cappedByBytes = ResponseCache<Int>(limits: .init(entries: 1_000, bytes: 16 * 100))
        for key in 0..<100 { cappedByBytes.store(representation(100), for: key, at: 1) }
        #expect(cappedByBytes.size.bytes <= 1_600)
        #expect(cappedByBytes.size.entries == 16)
    }

    @Test func aBodyOverASixteenthOfTheBudgetIsNotKept() {
        let cache = ResponseCache<Int>(limits: .init(entries: 10, bytes: 1_600))
        cache.store(representation(101), for: 1, at: 1)
        #expect(cache.entry(for: 1) == nil)
        cache.store(representation(100), for: 1, at: 1)
        #expect(cache.entry(for: 1) != nil)
    }

    @Test func entriesReadSinceTheHandPassedSurviveAnEviction() {
        let cache = ResponseCache<Int>(limits: .init(entries: 4, bytes: 1 << 20))
        for key in 0..<4 { cache.store(representation(10), for: key, at: 1) }
        _ = cache.entry(for: 0)
        cache.store(representation(10), for: 4, at: 1)
        #expect(cache.entry(for: 0) != nil, "read, so given a second chance")
        #expect(cache.entry(for: 1) == nil, "the oldest unread goes first")
        #expect(cache.entry(for: 4) != nil)
    }

    @Test func aSlowReaderDoesNotReplaceANewerVersion() {
        let cache = ResponseCache<Int>()
        cache.store(representation(10, 0x62), for: 1, at: 7)
        cache.store(representation(10, 0x61), for: 1, at: 6)
        #expect(cache.entry(for: 1)?.version == 7)
        #expect(cache.entry(for: 1)?.representation.body.first == 0x62)
        cache.store(representation(12), for: 1, at: 8)
        #expect(cache.entry(for: 1)?.version == 8)
        #expect(cache.size.bytes == 12)
    }
}
