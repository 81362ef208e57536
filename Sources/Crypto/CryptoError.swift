/// Failures the Crypto module reports to callers instead of trapping.
public enum CryptoError: Error, Equatable {
    /// The key material could not be parsed or is not of the expected kind.
    case invalidKey(String)
    /// The password hashing library rejected the input or parameters.
    case hashingFailed(String)
    /// A cipher could not run, or the ciphertext does not decrypt under the key (wrong key, length or padding).
    case decryptionFailed(String)
}
