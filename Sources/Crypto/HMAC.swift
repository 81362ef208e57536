import COpenSSL

/// Keyed message authentication (RFC 2104) computed by OpenSSL.
public enum HMAC {
    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func sha256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        // OpenSSL takes the key length as a C int; RFC 2104 replaces any key longer than the
        // block size by its digest, so doing that ourselves for giant keys gives the same MAC.
        if key.count > Int(Int32.max) {
            return sha256(key: Digest.sha256(key), message: message)
        }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var written: UInt32 = 0
        let result = withContiguousBytes(key) { keyPointer, keyCount in
            withContiguousBytes(message) { messagePointer, messageCount in
                COpenSSL.HMAC(
                    EVP_sha256(), keyPointer, Int32(keyCount),
                    messagePointer, messageCount, &out, &written
                )
            }
        }
        precondition(result != nil && written == 32, "OpenSSL HMAC failed")
        return Array(out.prefix(32))
    }
}
