import COpenSSL

/// Owns one EVP_PKEY (public or private) and frees it with the last reference.
///
/// Sendable unchecked because the C handle is opaque to the compiler. No thread owns the key: it is
/// never mutated after parsing, and openssl-threads(7) allows concurrent read-only use of one
/// EVP_PKEY from any thread, each user with its own EVP_MD_CTX (every sign or verify makes one).
final class OwnedKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }
}

/// Reads an RSA key written as PEM, or as the bare base64 DER body the providers' key tools write.
enum RSAKeyText {
    /// `text` with ASCII whitespace around it ignored: PEM (`-----BEGIN …`) through `readPEM`,
    /// anything else as base64 DER through `readDER`, which must consume every byte. Throws
    /// `CryptoError.invalidKey(invalid)` when neither reads a key, `(notRSA)` for a key of another type.
    static func parse(_ text: String, invalid: String, notRSA: String,
                      readPEM: (OpaquePointer) -> OpaquePointer?,
                      readDER: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?) throws -> OwnedKey {
        let trimmed = text.trimmingASCIIWhitespace()
        let parsed = trimmed.hasPrefix("-----BEGIN") ? pem(trimmed, readPEM) : der(trimmed, readDER)
        guard let pkey = parsed else {
            ERR_clear_error()
            throw CryptoError.invalidKey(invalid)
        }
        let owned = OwnedKey(pkey)
        guard EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA else { throw CryptoError.invalidKey(notRSA) }
        return owned
    }

    private static func pem(_ text: String, _ read: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        let bytes = Array(text.utf8)
        guard bytes.count <= Int(Int32.max) else { return nil }
        return bytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }

    private static func der(_ body: String, _ read: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?) -> OpaquePointer? {
        let compact = String(body.unicodeScalars.filter { !$0.properties.isWhitespace })
        guard let der = Base64.decode(compact), !der.isEmpty else { return nil }
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let pkey = read(&cursor, buffer.count) else { return nil }
            // Trailing bytes after the key mean the input was not one clean key.
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                EVP_PKEY_free(pkey)
                return nil
            }
            return pkey
        }
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
