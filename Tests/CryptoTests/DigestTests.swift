import Testing
import Crypto

@Suite("Digest")
struct DigestTests {
    /// RFC 1321 appendix A.5 test suite.
    static let md5Vectors: [(String, String)] = [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ]

    @Test("MD5 matches the RFC 1321 test suite", arguments: md5Vectors)
    func md5MatchesRFC1321(input: String, expected: String) {
        #expect(Digest.md5Hex(input) == expected)
        #expect(Hex.encode(Digest.md5(Array(input.utf8))) == expected)
    }

    /// FIPS 180-2 appendix B vectors, plus the empty message.
    static let sha256Vectors: [(String, String)] = [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ]

    @Test("SHA-256 matches the FIPS 180-2 vectors", arguments: sha256Vectors)
    func sha256MatchesFIPS180(input: String, expected: String) {
        #expect(Digest.sha256Hex(input) == expected)
        #expect(Hex.encode(Digest.sha256(Array(input.utf8))) == expected)
    }

    @Test func sha256OfANonContiguousCollectionMatchesTheArrayForm() {
        let bytes = Array("abc".utf8)
        #expect(Digest.sha256(bytes.reversed().reversed()) == Digest.sha256(bytes))
        #expect(Digest.sha256(bytes[...]) == Digest.sha256(bytes))
    }
}
