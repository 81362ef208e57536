import COpenSSL

/// Cryptographically secure randomness from OpenSSL's CSPRNG; inject it so callers stay testable.
public struct SecureRandom: Sendable {
    /// Creates a source backed by OpenSSL's thread-safe default generator.
    public init() {}

    /// `count` random bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "byte count must not be negative")
        var out = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let chunk = min(count - offset, Int(Int32.max))
            let status = out.withUnsafeMutableBufferPointer { buffer in
                RAND_bytes(buffer.baseAddress.map { $0 + offset }, Int32(chunk))
            }
            // A seeded CSPRNG does not fail; if it does, handing out weak bytes would be worse.
            precondition(status == 1, "OpenSSL RAND_bytes failed")
            offset += chunk
        }
        return out
    }

    /// An unguessable token: `byteCount` random bytes as unpadded base64url.
    public func token(byteCount: Int = 32) -> String {
        Base64.encodeURLSafeUnpadded(bytes(byteCount))
    }

    /// A uniformly distributed integer in `0..<upperBound`, by rejection sampling (no modulo bias).
    public func uniform(_ upperBound: Int) -> Int {
        precondition(upperBound > 0, "upper bound must be positive")
        let range = UInt64(upperBound)
        // Values below 2^64 mod range would be over-represented; draw again in that case.
        let threshold = (0 &- range) % range
        while true {
            let value = bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if value >= threshold { return Int(value % range) }
        }
    }

    /// `count` uniform decimal digits, e.g. "042917" for a one-time code.
    public func digits(_ count: Int) -> String {
        precondition(count >= 0, "digit count must not be negative")
        let zero = UInt8(ascii: "0")
        let chars = (0..<count).map { _ in zero + UInt8(uniform(10)) }
        return String(decoding: chars, as: UTF8.self)
    }
}
