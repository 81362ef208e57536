import Dispatch
import Synchronization
import Testing
import Crypto

@Suite("RSAPublicKey")
struct RSAPublicKeyTests {
    let message = Array(RSAFixtures.message.utf8)

    private func signature() throws -> [UInt8] {
        try #require(Base64.decode(RSAFixtures.signatureBase64))
    }

    @Test func validSignatureVerifies() throws {
        let key = try RSAPublicKey(pem: RSAFixtures.publicKeyPEM)
        #expect(try key.verifySHA256(signature: signature(), message: message))
    }

    @Test func flippedMessageByteDoesNotVerify() throws {
        let key = try RSAPublicKey(pem: RSAFixtures.publicKeyPEM)
        for index in [0, message.count / 2, message.count - 1] {
            var tampered = message
            tampered[index] ^= 0x01
            #expect(try !key.verifySHA256(signature: signature(), message: tampered))
        }
    }

    @Test func flippedSignatureByteDoesNotVerify() throws {
        let key = try RSAPublicKey(pem: RSAFixtures.publicKeyPEM)
        let original = try signature()
        for index in [0, original.count / 2, original.count - 1] {
            var tampered = original
            tampered[index] ^= 0x01
            #expect(!key.verifySHA256(signature: tampered, message: message))
        }
    }

    @Test func truncatedOrEmptySignatureDoesNotVerify() throws {
        let key = try RSAPublicKey(pem: RSAFixtures.publicKeyPEM)
        #expect(try !key.verifySHA256(signature: Array(signature().dropLast()), message: message))
        #expect(!key.verifySHA256(signature: [], message: message))
    }

    @Test func signatureFromAnotherKeyDoesNotVerify() throws {
        let other = try RSAPublicKey(pem: RSAFixtures.otherPublicKeyPEM)
        #expect(try !other.verifySHA256(signature: signature(), message: message))
    }

    @Test func bareBase64KeyIsAccepted() throws {
        let key = try RSAPublicKey(pem: RSAFixtures.publicKeyBareBase64)
        #expect(try key.verifySHA256(signature: signature(), message: message))
    }

    @Test func bareBase64KeyWithLineBreaksAndSurroundingSpaceIsAccepted() throws {
        let body = RSAFixtures.publicKeyPEM
            .split(separator: "\n")
            .filter { !$0.hasPrefix("-----") }
            .joined(separator: "\n")
        let key = try RSAPublicKey(pem: "  \n" + body + "\n")
        #expect(try key.verifySHA256(signature: signature(), message: message))
    }

    @Test("Garbage key text throws invalidKey", arguments: [
        "",
        "not a key",
        "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----",
        "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----",
        "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA2i6eh44wTVNpG8xkls9O",
        "QUJDRA==",
    ])
    func garbageKeyThrowsInvalidKey(text: String) {
        #expect(throws: CryptoError.self) { try RSAPublicKey(pem: text) }
    }

    @Test func bareBase64WithTrailingBytesThrows() throws {
        var der = try #require(Base64.decode(RSAFixtures.publicKeyBareBase64))
        der.append(0)
        #expect(throws: CryptoError.self) { try RSAPublicKey(pem: Base64.encode(der)) }
    }

    @Test func nonRSAKeyThrowsInvalidKey() {
        #expect {
            try RSAPublicKey(pem: RSAFixtures.ecPublicKeyPEM)
        } throws: { error in
            error as? CryptoError == .invalidKey("public key is not RSA")
        }
    }

    @Test func oneKeyVerifiesFromManyThreadsAtOnce() throws {
        let key = try RSAPublicKey(pem: RSAFixtures.publicKeyPEM)
        let signature = try signature()
        let message = message
        let results = Mutex([Bool](repeating: false, count: 64))
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            var tbs = message
            // Odd iterations tamper, so both outcomes are exercised concurrently.
            if index % 2 == 1 { tbs[0] ^= 0x01 }
            let valid = key.verifySHA256(signature: signature, message: tbs)
            results.withLock { $0[index] = valid }
        }
        let outcomes = results.withLock { $0 }
        #expect(outcomes.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0) })
    }
}
