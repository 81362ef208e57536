import Testing
import Crypto

@Suite("SecureRandom")
struct SecureRandomTests {
    let random = SecureRandom()

    @Test func bytesHaveTheRequestedLength() {
        #expect(random.bytes(0).isEmpty)
        #expect(random.bytes(1).count == 1)
        #expect(random.bytes(64).count == 64)
    }

    @Test func bytesAreNotConstant() {
        #expect(random.bytes(32) != random.bytes(32))
    }

    @Test func tokensAreDistinctUnpaddedBase64URLOfTheRightLength() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let tokens = (0..<100).map { _ in random.token() }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.count == 43)
            #expect(token.allSatisfy { alphabet.contains($0) })
        }
        #expect(random.token(byteCount: 16).count == 22)
        #expect(random.token(byteCount: 3).count == 4)
    }

    @Test func digitsAreTheRequestedNumberOfASCIIDigits() {
        for _ in 0..<50 {
            let code = random.digits(6)
            #expect(code.utf8.count == 6)
            #expect(code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        }
        #expect(random.digits(0) == "")
    }

    @Test func digitsCoverEveryDecimalValue() {
        let seen = Set((0..<40).flatMap { _ in random.digits(10) })
        #expect(seen == Set("0123456789"))
    }

    @Test func uniformStaysInRangeAndReachesEveryValue() {
        var seen = Set<Int>()
        for _ in 0..<2_000 {
            let value = random.uniform(7)
            #expect((0..<7).contains(value))
            seen.insert(value)
        }
        #expect(seen == Set(0..<7))
        #expect(random.uniform(1) == 0)
    }

    @Test func uniformHandlesTheLargestBound() {
        for _ in 0..<100 {
            let value = random.uniform(Int.max)
            #expect(value >= 0 && value < Int.max)
        }
    }
}
