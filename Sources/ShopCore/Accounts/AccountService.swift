import Crypto
import Foundation
import SQL

/// Register, log in and out, reset passwords, and read or edit one's own profile.
public struct AccountService: Sendable {
    let pool: any Database
    let settings: Config.Auth
    let clock: Clock
    let random: SecureRandom
    let verification: VerificationService
    let credentials: CredentialHasher
    /// Active tokens this node read within the last `auth.session_cache_ms` (see `SessionCache`).
    public let sessions: SessionCache
    /// Verified against when the phone is unknown, so both failures cost the same time.
    let dummyHash: String
    private let users = UserStore()
    private let tokens = TokenStore()
    private let failures = LoginFailureStore()

    public init(pool: any Database, settings: Config.Auth, clock: Clock, random: SecureRandom,
                verification: VerificationService) throws {
        self.pool = pool
        self.settings = settings
        self.clock = clock
        self.random = random
        self.verification = verification
        sessions = SessionCache(lifetimeMilliseconds: settings.sessionCacheMilliseconds)
        let parameters = PasswordHasher.Parameters(memoryKiB: UInt32(settings.argon2MemoryKiB),
                                                   iterations: UInt32(settings.argon2Iterations), parallelism: 1)
        let limit = HashingLimit(limit: settings.concurrentHashes)
        credentials = CredentialHasher(pepper: settings.pepper, hasher: PasswordHasher(parameters: parameters, random: random),
                                       limit: limit)
        dummyHash = try credentials.hasher.hash(random.bytes(32))
    }

    /// Creates the account with a code sent for `register`, and signs it in.
    /// The code is checked before any hashing, so a wrong one costs no Argon2 work; wrong codes are
    /// counted per phone and per client address like failed logins (`too_many_attempts`).
    public func register(phone rawPhone: String, code: String, credential: Credential, nickname: String?,
                         clientIP: String) throws -> Session {
        let phone = try PhoneNumber.normalize(rawPhone)
        try VerificationService.validateFormat(code)
        let name = nickname ?? "花友\(phone.suffix(4))"
        try Self.validateNickname(name)
        let now = clock.unixNow
        let accepted: Bool = try pool.write { db in
            try checkFailureLimits(.register, phone: phone, clientIP: clientIP, at: now, db)
            if try users.find(phone: phone, db) != nil { throw AccountError.phoneTaken }
            guard try verification.check(code, phone: phone, purpose: .register, at: now, db) == .valid else {
                try failures.record(.register, phone: phone, clientIP: clientIP, at: now, db)
                return false
            }
            return true
        }
        guard accepted else { throw AccountError.invalidCode }
        let hash = try credentials.hash(credential)
        let token = random.token(byteCount: 32)
        let outcome: Session? = try pool.write { db in
            if try users.find(phone: phone, db) != nil { throw AccountError.phoneTaken }
            // Checked again: a parallel request may have used the code while this one hashed.
            guard try verification.consume(code, phone: phone, purpose: .register, at: now, db) == .valid else { return nil }
            let id: UserID
            do {
                id = try users.insert(phone: phone, nickname: name, passwordHash: hash, at: now, db)
            } catch let error as any SQLError where error.isUniqueViolation {
                throw AccountError.phoneTaken
            }
            try failures.clear([.register], phone: phone, db)
            return try openSession(for: id, token: token, at: now, db)
        }
        guard let outcome else { throw AccountError.invalidCode }
        return outcome
    }

    /// Signs in with phone + credential; failures are counted per phone and per client address.
    public func login(phone rawPhone: String, credential: Credential, clientIP: String) throws -> Session {
        // A malformed phone is a plain 400: no hash is computed for it, so it cannot be used to
        // make the server burn CPU outside the failure counters.
        let phone = try PhoneNumber.normalize(rawPhone)
        let now = clock.unixNow
        // Every attempt is counted as a failure up front, in the transaction that checks the limit,
        // so parallel guesses cannot all slip under it; a success clears the phone's failures.
        let stored: UserStore.Credentials? = try pool.write { db in
            try checkFailureLimits(.login, phone: phone, clientIP: clientIP, at: now, db)
            try failures.record(.login, phone: phone, clientIP: clientIP, at: now, db)
            return try users.credentials(phone: phone, db)
        }
        guard let stored, credentials.verify(credential, encoded: stored.passwordHash) else {
            if stored == nil { _ = credentials.verify(credential, encoded: dummyHash) }
            throw AccountError.invalidCredentials
        }
        // Told only to whoever knows the password, so a ban never reveals that a phone has an account.
        if stored.bannedAt != nil { throw AccountError.accountBanned }
        let upgraded = credentials.needsRehash(stored.passwordHash) ? try credentials.hash(credential) : nil
        let token = random.token(byteCount: 32)
        return try pool.write { db in
            try failures.clear([.login], phone: phone, db)
            if let upgraded { try users.setPasswordHash(upgraded, for: stored.userID, at: now, db) }
            return try openSession(for: stored.userID, token: token, at: now, db)
        }
    }

    /// Revokes the token at once (on other nodes within `auth.session_cache_ms`).
    public func logout(token: String) throws {
        let now = clock.unixNow
        defer { sessions.forgetAll() }
        try pool.write { db in try tokens.revoke(tokenHash: Digest.sha256Hex(token), at: now, db) }
    }

    /// Sets a new password with a code sent for `reset_password`, and revokes every token of the user.
    /// As for `register`, the code is checked before any hashing and wrong codes are counted. Reset
    /// failures are counted apart from login failures, so the owner of a phone locked by others'
    /// failed logins can still reset; a successful reset lifts the phone's login and reset locks.
    public func resetPassword(phone rawPhone: String, code: String, credential: Credential, clientIP: String) throws {
        let phone = try PhoneNumber.normalize(rawPhone)
        try VerificationService.validateFormat(code)
        let now = clock.unixNow
        let accepted: Bool = try pool.write { db in
            try checkFailureLimits(.resetPassword, phone: phone, clientIP: clientIP, at: now, db)
            // An unknown phone fails exactly like a wrong code: no account enumeration.
            guard try users.find(phone: phone, db) != nil,
                  try verification.check(code, phone: phone, purpose: .resetPassword, at: now, db) == .valid else {
                try failures.record(.resetPassword, phone: phone, clientIP: clientIP, at: now, db)
                return false
            }
            return true
        }
        guard accepted else { throw AccountError.invalidCode }
        let hash = try credentials.hash(credential)
        defer { sessions.forgetAll() }
        let done: Bool = try pool.write { db in
            guard let user = try users.find(phone: phone, db),
                  try verification.consume(code, phone: phone, purpose: .resetPassword, at: now, db) == .valid else {
                return false
            }
            try users.setPasswordHash(hash, for: user.id, at: now, db)
            try tokens.revokeAll(user: user.id, at: now, db)
            try failures.clear([.login, .resetPassword], phone: phone, db)
            return true
        }
        if !done { throw AccountError.invalidCode }
    }

    /// Drops tokens expired or revoked over a day ago and login failures outside the window.
    public func purgeSpentRecords() throws {
        let now = clock.unixNow
        try pool.write { db in
            try tokens.purge(before: now - 86_400, db)
            try failures.purge(before: now - Int64(settings.failureWindowSeconds), db)
        }
    }

    /// The user a bearer token belongs to, or `unauthorized`. An active token read from the
    /// database within `auth.session_cache_ms` is answered from this node's `sessions` (no
    /// statement); otherwise one statement, so no transaction around it (`readEach`): on
    /// PostgreSQL one round trip, not three.
    public func authenticate(token: String) throws -> UserID {
        guard !token.isEmpty, token.utf8.count <= 256 else { throw AccountError.unauthorized }
        let now = clock.unixNow
        let tokenHash = Digest.sha256Hex(token)
        if let user = sessions.user(tokenHash: tokenHash, at: now) { return user }
        let generation = sessions.generation
        guard let active = try pool.readEach({ db in try tokens.active(tokenHash: tokenHash, at: now, db) }) else {
            throw AccountError.unauthorized
        }
        sessions.keep(tokenHash: tokenHash, user: active.user, expiresAt: active.expiresAt, readAfter: generation)
        return active.user
    }

    /// One's own account.
    public func user(_ id: UserID) throws -> User {
        guard let user = try pool.read({ db in try users.find(id, db) }) else { throw AccountError.unauthorized }
        return user
    }

    /// Changes the allow-listed profile fields; everything else stays as it is.
    public func updateProfile(_ id: UserID, _ changes: ProfileChanges) throws -> User {
        if let nickname = changes.nickname { try Self.validateNickname(nickname) }
        if let avatar = changes.avatarURL { try Validate.optionalURL(avatar, field: "avatar_url") }
        if let signature = changes.signature {
            try Validate.length(signature, 0...140, field: "signature")
            try Validate.printable(signature, field: "signature")
        }
        let now = clock.unixNow
        return try pool.write { db in
            guard var user = try users.find(id, db) else { throw AccountError.unauthorized }
            if let nickname = changes.nickname { user.nickname = nickname }
            if let avatar = changes.avatarURL { user.avatarURL = avatar }
            if let signature = changes.signature { user.signature = signature }
            if let gender = changes.gender { user.gender = gender }
            try users.update(user, at: now, db)
            return user
        }
    }

    /// Throws `tooManyAttempts` when this phone or this client address has failed `kind` too often
    /// in the window; `retry_after` is when the oldest counted failure leaves it.
    private func checkFailureLimits(_ kind: LoginFailureStore.Kind, phone: String, clientIP: String, at now: Int64,
                                    _ db: any SQLConnection) throws {
        // the count and the failure recorded after it are one step per phone and per address
        try db.serialize(on: "attempts:phone:\(phone)", "attempts:ip:\(clientIP)")
        let window = Int64(settings.failureWindowSeconds)
        for (current, limit) in [(try failures.window(kind, phone: phone, since: now - window, db), settings.maxFailuresPerPhone),
                                 (try failures.window(kind, clientIP: clientIP, since: now - window, db), settings.maxFailuresPerIP)]
        where current.count >= limit {
            throw AccountError.tooManyAttempts(
                retryAfter: VerificationService.retryAfter(oldest: current.oldest, window: window, now: now))
        }
    }

    /// Checked in the transaction that stores the token, so a ban landing while the password was
    /// being hashed still keeps the buyer out.
    private func openSession(for id: UserID, token: String, at now: Int64, _ db: any SQLConnection) throws -> Session {
        if try users.isBanned(id, db) { throw AccountError.accountBanned }
        let expiresAt = now + Int64(settings.tokenLifetimeDays) * 86_400
        try tokens.insert(user: id, tokenHash: Digest.sha256Hex(token), at: now, expiresAt: expiresAt, db)
        guard let user = try users.find(id, db) else { throw AccountError.unauthorized }
        return Session(token: token, expiresAt: Date(timeIntervalSince1970: TimeInterval(expiresAt)), user: user)
    }

    static func validateNickname(_ nickname: String) throws {
        try Validate.length(nickname.trimmedInput, 1...20, field: "nickname")
        try Validate.length(nickname, 1...20, field: "nickname")
        try Validate.printable(nickname, field: "nickname")
    }
}
