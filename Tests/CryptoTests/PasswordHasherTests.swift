import Testing
import Crypto
import Foundation

@Suite("PasswordHasher")
struct PasswordHasherTests {
    /// Small costs keep the suite fast; the default parameters get one test of their own.
    static let cheap = PasswordHasher.Parameters(memoryKiB: 1_024, iterations: 1, parallelism: 1)
    let hasher = PasswordHasher(parameters: cheap)
    let secret = Array("correct horse battery staple".utf8)

    /// The argon2id vector from the reference implementation's test.c and README
    /// (password "password", salt "somesalt", t=2, m=65536, p=1).
    static let referenceEncoded =
        "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
    static let referenceHashHex = "09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7"

    @Test func referenceArgon2idVectorVerifies() throws {
        // The encoded form carries the known raw hash; verify recomputes it from the password.
        let hashField = try #require(Self.referenceEncoded.split(separator: "$").last)
        let raw = try #require(Base64.decode(String(hashField) + "="))
        #expect(Hex.encode(raw) == Self.referenceHashHex)
        #expect(hasher.verify(Array("password".utf8), encoded: Self.referenceEncoded))
        #expect(!hasher.verify(Array("passwore".utf8), encoded: Self.referenceEncoded))
    }

    @Test func hashThenVerifyAcceptsTheSameSecret() throws {
        let encoded = try hasher.hash(secret)
        #expect(hasher.verify(secret, encoded: encoded))
    }

    @Test func verifyRejectsAWrongSecret() throws {
        let encoded = try hasher.hash(secret)
        #expect(!hasher.verify(Array("correct horse battery stapler".utf8), encoded: encoded))
        #expect(!hasher.verify([], encoded: encoded))
    }

    @Test func emptySecretHashesAndVerifies() throws {
        let encoded = try hasher.hash([])
        #expect(hasher.verify([], encoded: encoded))
        #expect(!hasher.verify([0], encoded: encoded))
    }

    @Test func defaultParametersProduceTheStandardEncodedPrefix() throws {
        let strong = PasswordHasher(parameters: .default)
        #expect(PasswordHasher.Parameters.default == .init(memoryKiB: 19_456, iterations: 2, parallelism: 1))
        let encoded = try strong.hash(secret)
        #expect(encoded.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        // 16-byte salt and 32-byte hash, unpadded base64: 22 and 43 characters.
        let fields = encoded.split(separator: "$")
        #expect(fields.count == 5)
        #expect(fields.dropFirst(3).first?.count == 22)
        #expect(fields.last?.count == 43)
        #expect(strong.verify(secret, encoded: encoded))
    }

    @Test func twoHashesOfOneSecretDifferBySalt() throws {
        let first = try hasher.hash(secret)
        let second = try hasher.hash(secret)
        #expect(first != second)
        #expect(hasher.verify(secret, encoded: first))
        #expect(hasher.verify(secret, encoded: second))
    }

    @Test func malformedEncodedStringsDoNotVerify() throws {
        let encoded = try hasher.hash(secret)
        let malformed = [
            "",
            "not a hash",
            String(encoded.dropLast(5)),
            encoded.replacingOccurrences(of: "$argon2id$", with: "$argon2i$"),
            encoded.replacingOccurrences(of: "m=1024", with: "m=abc"),
            "$argon2id$v=19$m=1024,t=1,p=1$$",
            "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
        ]
        for text in malformed {
            #expect(!hasher.verify(secret, encoded: text), "\(text)")
        }
    }

    @Test func needsRehashIsFalseWhenParametersAreEqual() throws {
        let encoded = try hasher.hash(secret)
        #expect(!hasher.needsRehash(encoded))
    }

    @Test func needsRehashIsFalseWhenStoredCostsAreHigher() throws {
        let encoded = try hasher.hash(secret)
        let weaker = PasswordHasher(parameters: .init(memoryKiB: 512, iterations: 1, parallelism: 1))
        #expect(!weaker.needsRehash(encoded))
    }

    @Test func needsRehashIsTrueWhenAnyParameterRises() throws {
        let encoded = try hasher.hash(secret)
        let raised: [PasswordHasher.Parameters] = [
            .init(memoryKiB: 2_048, iterations: 1, parallelism: 1),
            .init(memoryKiB: 1_024, iterations: 2, parallelism: 1),
            .init(memoryKiB: 1_024, iterations: 1, parallelism: 2),
            .default,
        ]
        for parameters in raised {
            #expect(PasswordHasher(parameters: parameters).needsRehash(encoded), "\(parameters)")
        }
    }

    @Test func needsRehashIsTrueForOtherAlgorithmsAndGarbage() {
        #expect(hasher.needsRehash("$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA"))
        #expect(hasher.needsRehash("$argon2id$v=16$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"))
        #expect(hasher.needsRehash("5f4dcc3b5aa765d61d8327deb882cf99"))
        #expect(hasher.needsRehash(""))
    }

    @Test func impossibleParametersThrowHashingFailed() {
        // Argon2 needs at least 8 KiB of memory per lane.
        let broken = PasswordHasher(parameters: .init(memoryKiB: 1, iterations: 1, parallelism: 1))
        #expect(throws: CryptoError.self) { try broken.hash(secret) }
        let noPasses = PasswordHasher(parameters: .init(memoryKiB: 1_024, iterations: 0, parallelism: 1))
        #expect(throws: CryptoError.self) { try noPasses.hash(secret) }
    }
}
