import COpenSSL

/// Checks a TLS client identity before it is needed: an X.509 certificate (PEM) and the PEM
/// private key that belongs to it, so a shop with a broken one stops at start-up, not at its first refund.
public enum ClientIdentityCheck {
    /// nil when `certificatePEM` is a certificate and `keyPEM` its private key; else what is wrong.
    public static func problem(certificatePEM: String, keyPEM: String) -> String? {
        defer { ERR_clear_error() }
        guard let certificate = read(certificatePEM, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            return "is not a PEM X.509 certificate"
        }
        defer { X509_free(certificate) }
        // no passphrase callback: an encrypted key is refused rather than prompting on a terminal
        guard let key = read(keyPEM, { PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil) }) else {
            return "has no PEM private key beside it (an unencrypted key is needed)"
        }
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(certificate, key) == 1 else { return "and its private key do not belong together" }
        return nil
    }

    private static func read(_ text: String, _ body: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return nil }
        return bytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }
}
