@testable import HTTP
import Testing
import ThreadTestSupport

@Suite("RequestIDGenerator")
struct RequestIDGeneratorTests {
    @Test func idsAreSixteenLowercaseHexDigits() {
        let ids = RequestIDGenerator(seed: [1, 2, 3, 4, 5, 6, 7, 8])
        for _ in 0..<1_000 {
            let id = ids.next()
            #expect(id.utf8.count == 16)
            #expect(id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            #expect(RequestIDMiddleware.isAcceptable(id))
        }
    }

    @Test func idsMadeOnManyThreadsAtOnceAreAllDistinct() {
        let ids = RequestIDGenerator(seed: [9, 9, 9, 9, 9, 9, 9, 9])
        let seen = Locked<[String]>([])
        let finished = onThreads(8) { _ in
            var mine: [String] = []
            for _ in 0..<20_000 { mine.append(ids.next()) }
            seen.withLock { $0 += mine }
        }
        #expect(finished)
        let all = seen.withLock { $0 }
        #expect(all.count == 160_000)
        #expect(Set(all).count == all.count)
    }

    @Test func neighbouringCountersGiveUnrelatedIDsAndSeedsGiveDifferentSequences() {
        let one = RequestIDGenerator(seed: [0, 0, 0, 0, 0, 0, 0, 1])
        let first = one.next(), second = one.next()
        #expect(first.prefix(8) != second.prefix(8))
        #expect(first.suffix(8) != second.suffix(8))
        #expect(RequestIDGenerator(seed: [0xA5, 1, 2, 3, 4, 5, 6, 7]).next() != first)
    }

    @Test func thePermutationIsABijectionOnASample() {
        let inputs: [UInt64] = (0..<50_000).map { $0 } + (0..<50_000).map { UInt64.max - $0 } + (0..<50_000).map { $0 << 40 }
        let outputs = Set(inputs.map(RequestIDGenerator.permute))
        #expect(outputs.count == Set(inputs).count)
        #expect(RequestIDGenerator.hex(0x0123_4567_89AB_CDEF) == "0123456789abcdef")
    }
}
