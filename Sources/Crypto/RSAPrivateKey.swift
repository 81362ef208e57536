import COpenSSL

/// An RSA private key for making RSASSA-PKCS1-v1_5 / SHA-256 signatures (Alipay "RSA2" requests).
public struct RSAPrivateKey: Sendable {
    private let key: OwnedPrivateKey

    /// Parses a PKCS#8 ("-----BEGIN PRIVATE KEY-----") or PKCS#1 ("-----BEGIN RSA PRIVATE KEY-----")
    /// PEM key, or the bare base64 PKCS#8 body Alipay's key tool writes; throws
    /// `CryptoError.invalidKey` for anything else, or for a key that is not RSA.
    public init(pem: String) throws {
        let trimmed = pem.trimmingCharacters { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        let parsed = trimmed.hasPrefix("-----BEGIN") ? Self.parsePEM(trimmed) : Self.parseBareBase64(trimmed)
        guard let pkey = parsed else {
            ERR_clear_error()
            throw CryptoError.invalidKey("not an RSA private key (PKCS#8 or PKCS#1)")
        }
        let owned = OwnedPrivateKey(pkey)
        guard EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA else {
            throw CryptoError.invalidKey("private key is not RSA")
        }
        key = owned
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

    private static func parsePEM(_ pem: String) -> OpaquePointer? {
        let bytes = Array(pem.utf8)
        guard bytes.count <= Int(Int32.max) else { return nil }
        return bytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            // No passphrase callback: an encrypted key is refused rather than prompting on a terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
    }

    private static func parseBareBase64(_ body: String) -> OpaquePointer? {
        let compact = String(body.unicodeScalars.filter { !$0.properties.isWhitespace })
        guard let der = Base64.decode(compact), !der.isEmpty else { return nil }
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let pkey = d2i_AutoPrivateKey(nil, &cursor, buffer.count) else { return nil }
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                EVP_PKEY_free(pkey)
                return nil
            }
            return pkey
        }
    }
}

/// Owns one private EVP_PKEY and frees it with the last reference.
///
/// Sendable unchecked for the same reason as the public key's holder: never mutated after parsing,
/// and openssl-threads(7) allows concurrent read-only use, each signer with its own EVP_MD_CTX.
private final class OwnedPrivateKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }
}

extension String {
    fileprivate func trimmingCharacters(_ isSpace: (Character) -> Bool) -> String {
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
