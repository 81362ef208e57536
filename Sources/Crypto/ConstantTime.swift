import COpenSSL

/// Compares two byte strings in time that depends only on their lengths, never on where they
/// differ: use it for MACs, tokens and signatures. Different lengths compare unequal.
public func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    let left = Array(a)
    let right = Array(b)
    // On a length mismatch still do one full comparison so the content of `a` does not
    // shorten the work; the lengths themselves are not treated as secret.
    let other = left.count == right.count ? right : left
    let same = left.withUnsafeBytes { l in
        other.withUnsafeBytes { r in
            CRYPTO_memcmp(l.baseAddress, r.baseAddress, l.count) == 0
        }
    }
    return same && left.count == right.count
}
