import Testing
import Crypto

@Suite("constantTimeEquals")
struct ConstantTimeEqualsTests {
    @Test func equalBytesCompareEqual() {
        #expect(constantTimeEquals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(constantTimeEquals([UInt8](), [UInt8]()))
    }

    @Test func differingBytesCompareUnequal() {
        #expect(!constantTimeEquals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!constantTimeEquals([0, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
    }

    @Test func differentLengthsCompareUnequalEvenWithACommonPrefix() {
        #expect(!constantTimeEquals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(!constantTimeEquals([1, 2] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!constantTimeEquals([UInt8](), [0] as [UInt8]))
    }

    @Test func mixedCollectionTypesCompareByContent() {
        let bytes: [UInt8] = [9, 8, 7]
        #expect(constantTimeEquals(bytes[...], bytes))
        #expect(constantTimeEquals(Array("abc".utf8), "abc".utf8))
    }
}
