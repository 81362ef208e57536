import Crypto
import Testing

@Suite("AES-256-ECB")
struct AESTests {
    static let key = Hex.decode("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f") ?? []

    /// FIPS-197 appendix C.3: one block, then PKCS#7's whole block of padding.
    @Test func encryptsTheFIPS197VectorThenAPaddingBlock() throws {
        let plain = Hex.decode("00112233445566778899aabbccddeeff") ?? []
        let sealed = try AES256ECB.encrypt(plain, key: Self.key)
        #expect(sealed.count == 32)
        #expect(Hex.encode(sealed.prefix(16)) == "8ea2b7ca516745bfeafc49904b496089")
        #expect(try AES256ECB.decrypt(sealed, key: Self.key) == plain)
    }

    @Test func roundTripsTextOfAnyLength() throws {
        for length in [0, 1, 15, 16, 17, 300] {
            let text = Array(String(repeating: "退", count: length).utf8)
            #expect(try AES256ECB.decrypt(try AES256ECB.encrypt(text, key: Self.key), key: Self.key) == text)
        }
    }

    @Test func refusesPartialBlocksAndKeysThatAreNot32Bytes() throws {
        let sealed = try AES256ECB.encrypt(Array("refund".utf8), key: Self.key)
        #expect(throws: CryptoError.self) { try AES256ECB.decrypt(Array(sealed.dropLast()), key: Self.key) }
        #expect(throws: CryptoError.self) { try AES256ECB.decrypt([], key: Self.key) }
        #expect(throws: CryptoError.self) { try AES256ECB.decrypt(sealed, key: Array(Self.key.prefix(16))) }
        #expect(throws: CryptoError.self) { try AES256ECB.encrypt(sealed, key: Array(Self.key.prefix(31))) }
    }

    @Test func aWrongKeyFailsThePaddingCheck() throws {
        let sealed = try AES256ECB.encrypt(Array("<root><refund_status>SUCCESS</refund_status></root>".utf8), key: Self.key)
        let other = Array(Self.key.reversed())
        #expect(throws: CryptoError.self) { try AES256ECB.decrypt(sealed, key: other) }
    }
}
