import COpenSSL

/// Message digests computed by OpenSSL's EVP interface.
public enum Digest {
    /// MD5 of the bytes (16 bytes). For legacy checksums only, never for security.
    public static func md5(_ data: some Collection<UInt8>) -> [UInt8] {
        compute(data, algorithm: EVP_md5(), length: 16)
    }

    /// SHA-256 of the bytes (32 bytes).
    public static func sha256(_ data: some Collection<UInt8>) -> [UInt8] {
        compute(data, algorithm: EVP_sha256(), length: 32)
    }

    /// Lowercase hex MD5 of the string's UTF-8 bytes.
    public static func md5Hex(_ s: String) -> String {
        Hex.encode(md5(Array(s.utf8)))
    }

    /// Lowercase hex SHA-256 of the string's UTF-8 bytes.
    public static func sha256Hex(_ s: String) -> String {
        Hex.encode(sha256(Array(s.utf8)))
    }

    private static func compute(
        _ data: some Collection<UInt8>,
        algorithm: OpaquePointer?,
        length: Int
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var written: UInt32 = 0
        let status = withContiguousBytes(data) { pointer, count in
            EVP_Digest(pointer, count, &out, &written, algorithm, nil)
        }
        // Only an allocation failure or a missing built-in algorithm can get here.
        precondition(status == 1 && Int(written) == length, "OpenSSL EVP_Digest failed")
        return Array(out.prefix(length))
    }
}
