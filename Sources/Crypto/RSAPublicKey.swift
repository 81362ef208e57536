import COpenSSL

/// An RSA public key for checking RSASSA-PKCS1-v1_5 / SHA-256 signatures (Alipay "RSA2").
public struct RSAPublicKey: Sendable {
    private let key: OwnedPublicKey

    /// Parses a SubjectPublicKeyInfo key, either as PEM ("-----BEGIN PUBLIC KEY-----") or as the
    /// bare base64 body Alipay hands out; throws `CryptoError.invalidKey` for anything else.
    public init(pem: String) throws {
        let trimmed = pem.trimmingASCIIWhitespace()
        let parsed = trimmed.hasPrefix("-----BEGIN") ? Self.parsePEM(trimmed) : Self.parseBareBase64(trimmed)
        guard let pkey = parsed else {
            ERR_clear_error()
            throw CryptoError.invalidKey("not a SubjectPublicKeyInfo public key")
        }
        let owned = OwnedPublicKey(pkey)
        guard EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA else {
            throw CryptoError.invalidKey("public key is not RSA")
        }
        key = owned
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

    private static func parsePEM(_ pem: String) -> OpaquePointer? {
        let bytes = Array(pem.utf8)
        guard bytes.count <= Int(Int32.max) else { return nil }
        return bytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
    }

    private static func parseBareBase64(_ body: String) -> OpaquePointer? {
        let compact = String(body.unicodeScalars.filter { !$0.properties.isWhitespace })
        guard let der = Base64.decode(compact), !der.isEmpty else { return nil }
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let pkey = d2i_PUBKEY(nil, &cursor, buffer.count) else { return nil }
            // Trailing bytes after the key mean the input was not one clean key.
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                EVP_PKEY_free(pkey)
                return nil
            }
            return pkey
        }
    }
}

/// Owns one EVP_PKEY and frees it with the last reference.
///
/// Sendable unchecked because the C handle is opaque to the compiler. No thread owns the key: it is
/// never mutated after parsing, and openssl-threads(7) allows concurrent read-only use of one
/// EVP_PKEY from any thread, each with its own EVP_MD_CTX (`verifySHA256` makes one per call).
private final class OwnedPublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs and line breaks.
    fileprivate func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }),
              let end = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[start...end])
    }
}
