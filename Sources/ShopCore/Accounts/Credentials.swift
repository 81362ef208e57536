import Crypto

/// The credential the Floral client sends: the lowercase hex MD5 of the password.
/// A client may send the plain password instead; the server then takes its MD5 itself.
public struct Credential: Sendable {
    let md5Hex: String

    public init(passwordMD5: String?, password: String?) throws {
        switch (passwordMD5, password) {
        case (let md5?, nil):
            guard md5.utf8.count == 32, Hex.decode(md5) != nil else {
                throw ValidationError("password_md5", .passwordMD5)
            }
            md5Hex = md5.lowercased()
        case (nil, let plain?):
            guard (8...64).contains(plain.unicodeScalars.count) else {
                throw ValidationError("password", .length, .range(8...64))
            }
            md5Hex = Digest.md5Hex(plain)
        case (.some, .some):
            throw ValidationError("password", .passwordTwice)
        case (nil, nil):
            throw ValidationError("password_md5", .passwordMissing)
        }
    }
}

/// Turns a credential into what is stored: argon2id over HMAC-SHA256(pepper, md5hex).
/// The pepper lives outside the database, so a leaked table cannot be "shucked" with known MD5s.
/// Every Argon2 computation waits for a slot of `limit`.
struct CredentialHasher: Sendable {
    static let scheme = "argon2id(hmac-sha256(pepper,md5hex))"
    let pepper: String
    let hasher: PasswordHasher
    let limit: HashingLimit

    func hash(_ credential: Credential) throws -> String {
        let secret = peppered(credential)
        return try limit.run { try hasher.hash(secret) }
    }

    func verify(_ credential: Credential, encoded: String) -> Bool {
        let secret = peppered(credential)
        return limit.run { hasher.verify(secret, encoded: encoded) }
    }

    func needsRehash(_ encoded: String) -> Bool {
        hasher.needsRehash(encoded)
    }

    private func peppered(_ credential: Credential) -> [UInt8] {
        HMAC.sha256(key: Array(pepper.utf8), message: Array(credential.md5Hex.utf8))
    }
}

extension CredentialHasher {
    /// A staff password (sent as it is typed, never as MD5): argon2id over HMAC-SHA256(pepper, password).
    func hash(staffPassword: String) throws -> String {
        let secret = HMAC.sha256(key: Array(pepper.utf8), message: Array(staffPassword.utf8))
        return try limit.run { try hasher.hash(secret) }
    }

    func verify(staffPassword: String, encoded: String) -> Bool {
        let secret = HMAC.sha256(key: Array(pepper.utf8), message: Array(staffPassword.utf8))
        return limit.run { hasher.verify(secret, encoded: encoded) }
    }
}
