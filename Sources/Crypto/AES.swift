import COpenSSL

/// AES-256 in ECB mode with PKCS#7 padding through OpenSSL's EVP cipher API: what WeChat Pay v2
/// uses for the `req_info` of a refund notification. ECB is WeChat's choice, not a recommendation.
public enum AES256ECB {
    /// The plaintext of `ciphertext` (whole 16-byte blocks, PKCS#7 padded) under a 32-byte `key`;
    /// throws `CryptoError.decryptionFailed` for a wrong key size, length or padding.
    public static func decrypt(_ ciphertext: [UInt8], key: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw CryptoError.decryptionFailed("not whole AES blocks") }
        return try run(ciphertext, key: key, encrypt: false)
    }

    /// `plaintext` PKCS#7 padded and encrypted under a 32-byte `key` (the fakes send what WeChat sends).
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8]) throws -> [UInt8] {
        try run(plaintext, key: key, encrypt: true)
    }

    private static func run(_ input: [UInt8], key: [UInt8], encrypt: Bool) throws -> [UInt8] {
        guard key.count == 32 else { throw CryptoError.decryptionFailed("an AES-256 key is 32 bytes") }
        guard input.count < Int(Int32.max) - 32, let context = EVP_CIPHER_CTX_new() else {
            throw CryptoError.decryptionFailed("input too large")
        }
        defer {
            EVP_CIPHER_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_CipherInit_ex(context, EVP_aes_256_ecb(), nil, key, nil, encrypt ? 1 : 0) == 1 else {
            throw CryptoError.decryptionFailed("cipher set-up failed")
        }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { out -> Bool in
            guard let base = out.baseAddress else { return false }
            let updated = input.withUnsafeBufferPointer { inp in
                EVP_CipherUpdate(context, base, &written, inp.baseAddress, Int32(inp.count))
            }
            guard updated == 1 else { return false }
            return EVP_CipherFinal_ex(context, base + Int(written), &final) == 1
        }
        guard ok else { throw CryptoError.decryptionFailed(encrypt ? "encryption failed" : "wrong key or padding") }
        return Array(output.prefix(Int(written + final)))
    }
}
