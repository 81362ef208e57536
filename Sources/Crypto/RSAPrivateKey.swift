import COpenSSL

/// An RSA private key for making RSASSA-PKCS1-v1_5 / SHA-256 signatures (Alipay "RSA2" requests).
public struct RSAPrivateKey: Sendable {
    private let key: OwnedKey

    /// Parses a PKCS#8 ("-----BEGIN PRIVATE KEY-----") or PKCS#1 ("-----BEGIN RSA PRIVATE KEY-----")
    /// PEM key, or the bare base64 PKCS#8 body Alipay's key tool writes; throws
    /// `CryptoError.invalidKey` for anything else, or for a key that is not RSA.
    public init(pem: String) throws {
        // No passphrase callback: an encrypted key is refused rather than prompting on a terminal.
        key = try RSAKeyText.parse(pem, invalid: "not an RSA private key (PKCS#8 or PKCS#1)", notRSA: "private key is not RSA",
                                   readPEM: { PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil) },
                                   readDER: { d2i_AutoPrivateKey(nil, $0, $1) })
    }

    /// The RSASSA-PKCS1-v1_5 SHA-256 signature of `message`.
    public func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError.invalidKey("out of memory") }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        // A fresh context per call: the shared key itself is only read.
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
            throw CryptoError.invalidKey("the key cannot sign")
        }
        var length = 0
        let sized = withContiguousBytes(message) { tbs, count in EVP_DigestSign(context, nil, &length, tbs, count) }
        guard sized == 1, length > 0 else { throw CryptoError.invalidKey("the key cannot sign") }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { out in
            withContiguousBytes(message) { tbs, count in EVP_DigestSign(context, out.baseAddress, &length, tbs, count) }
        }
        guard signed == 1 else { throw CryptoError.invalidKey("signing failed") }
        return Array(signature.prefix(length))
    }
}
