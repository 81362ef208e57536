import COpenSSL

/// An RSA public key for checking RSASSA-PKCS1-v1_5 / SHA-256 signatures (Alipay "RSA2").
public struct RSAPublicKey: Sendable {
    private let key: OwnedKey

    /// Parses a SubjectPublicKeyInfo key, either as PEM ("-----BEGIN PUBLIC KEY-----") or as the
    /// bare base64 body Alipay hands out; throws `CryptoError.invalidKey` for anything else.
    public init(pem: String) throws {
        key = try RSAKeyText.parse(pem, invalid: "not a SubjectPublicKeyInfo public key", notRSA: "public key is not RSA",
                                   readPEM: { PEM_read_bio_PUBKEY($0, nil, nil, nil) },
                                   readDER: { d2i_PUBKEY(nil, $0, $1) })
    }

    /// True when `signature` is a valid RSASSA-PKCS1-v1_5 SHA-256 signature of `message`.
    public func verifySHA256(signature: [UInt8], message: [UInt8]) -> Bool {
        guard !signature.isEmpty, let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            // A failed check leaves entries on this thread's error queue; keep it clean.
            ERR_clear_error()
        }
        // A fresh context per call: the shared key itself is only read.
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        let status = signature.withUnsafeBufferPointer { sig in
            withContiguousBytes(message) { tbs, tbsCount in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, tbs, tbsCount)
            }
        }
        return status == 1
    }
}
