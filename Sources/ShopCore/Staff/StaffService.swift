import Crypto
import Foundation
import SQL

/// Staff accounts: created, changed and disabled from the command line (`shop staff …`) or by an
/// owner, and signed in at `/api/v1/admin/auth/login`. Staff tokens are not buyers' tokens: each
/// kind works only on its own routes.
public struct StaffService: Sendable {
    let pool: any Database
    let settings: Config.Auth
    let lifetimeHours: Int
    let clock: Clock
    let random: SecureRandom
    let credentials: CredentialHasher
    /// Verified against when the username is unknown, so both failures cost the same time.
    let dummyHash: String
    private let store = StaffStore()
    private let audit = AuditTrail()

    public static let usernameLength = 3...32
    public static let passwordLength = 10...128

    init(pool: any Database, settings: Config.Auth, lifetimeHours: Int, clock: Clock, random: SecureRandom,
         credentials: CredentialHasher) throws {
        self.pool = pool
        self.settings = settings
        self.lifetimeHours = lifetimeHours
        self.clock = clock
        self.random = random
        self.credentials = credentials
        dummyHash = try credentials.hash(staffPassword: random.token(byteCount: 16))
    }

    /// Creates an account. Without `password` a one-time one is made and returned (shown once).
    public func add(username rawUsername: String, role: StaffRole, password: String?,
                    by actor: StaffActor) throws -> (member: StaffMember, password: String) {
        let username = try Self.normalizedUsername(rawUsername)
        let password = password ?? Self.oneTimePassword(random)
        try Self.validatePassword(password)
        let hash = try credentials.hash(staffPassword: password)
        let now = clock.unixNow
        let member: StaffMember = try pool.write { db in
            if try store.find(username: username, db) != nil { throw StaffError.usernameTaken(username) }
            let id = try store.insert(username: username, passwordHash: hash, role: role, at: now, db)
            guard let member = try store.find(id, db) else { throw StaffError.notFound(username) }
            try audit.record(actor, "staff.add", target: "staff:\(username)", after: member, at: now, db)
            return member
        }
        return (member, password)
    }

    public func list() throws -> [StaffMember] {
        try pool.read { db in try store.list(db) }
    }

    public func member(_ rawUsername: String) throws -> StaffMember {
        let username = rawUsername.lowercased()
        guard let member = try pool.read({ db in try store.find(username: username, db) }) else {
            throw StaffError.notFound(username)
        }
        return member
    }

    /// Changes a role; the last enabled owner keeps theirs.
    public func setRole(_ rawUsername: String, to role: StaffRole, by actor: StaffActor) throws -> StaffMember {
        try change(rawUsername, "staff.role", by: actor) { member, now, db in
            if member.role == .owner, role != .owner, member.disabledAt == nil, try store.activeOwners(db) <= 1 {
                throw StaffError.lastOwner
            }
            try store.setRole(role, of: member.id, at: now, db)
        }
    }

    /// Disables (every token stops working at once) or enables an account.
    public func setDisabled(_ rawUsername: String, _ disabled: Bool, by actor: StaffActor) throws -> StaffMember {
        try change(rawUsername, disabled ? "staff.disable" : "staff.enable", by: actor) { member, now, db in
            if disabled {
                if member.role == .owner, member.disabledAt == nil, try store.activeOwners(db) <= 1 { throw StaffError.lastOwner }
                try store.setDisabled(member.disabledAt ?? now, of: member.id, at: now, db)
                try store.revokeTokens(of: member.id, at: now, db)
            } else {
                try store.setDisabled(nil, of: member.id, at: now, db)
            }
        }
    }

    /// Sets a new password (one-time when nil, returned) and signs the account out everywhere.
    public func setPassword(_ rawUsername: String, _ password: String?, by actor: StaffActor) throws -> String {
        let password = password ?? Self.oneTimePassword(random)
        try Self.validatePassword(password)
        let hash = try credentials.hash(staffPassword: password)
        _ = try change(rawUsername, "staff.password", by: actor) { member, now, db in
            try store.setPasswordHash(hash, of: member.id, at: now, db)
            try store.revokeTokens(of: member.id, at: now, db)
        }
        return password
    }

    /// Signs a staff member in; failures are counted per username and per address like buyers'.
    public func login(username rawUsername: String, password: String, clientIP: String) throws -> StaffSession {
        let username = rawUsername.lowercased()
        guard Self.usernameLength.contains(username.count), Self.passwordLength.contains(password.unicodeScalars.count) else {
            throw StaffError.invalidCredentials
        }
        let now = clock.unixNow
        let stored: (member: StaffMember, hash: String)? = try pool.write { db in
            try db.serialize(on: "staff-attempts:\(username)", "staff-attempts:ip:\(clientIP)")
            let window = Int64(settings.failureWindowSeconds)
            let counts = try store.failures(username: username, clientIP: clientIP, since: now - window, db)
            for (current, limit) in zip(counts, [settings.maxFailuresPerPhone, settings.maxFailuresPerIP]) where current.count >= limit {
                throw AccountError.tooManyAttempts(
                    retryAfter: VerificationService.retryAfter(oldest: current.oldest, window: window, now: now))
            }
            try store.recordFailure(username: username, clientIP: clientIP, at: now, db)
            guard let member = try store.find(username: username, db), let hash = try store.passwordHash(of: member.id, db) else {
                return nil
            }
            return (member, hash)
        }
        guard let stored, credentials.verify(staffPassword: password, encoded: stored.hash), !stored.member.isDisabled else {
            if stored == nil { _ = credentials.verify(staffPassword: password, encoded: dummyHash) }
            throw StaffError.invalidCredentials
        }
        let token = random.token(byteCount: 32)
        let expiresAt = now + Int64(lifetimeHours) * 3_600
        try pool.write { db in
            try store.clearFailures(username: username, db)
            try store.insertToken(hash: Digest.sha256Hex(token), staff: stored.member.id, at: now, expiresAt: expiresAt, db)
        }
        return StaffSession(token: token, expiresAt: Date(timeIntervalSince1970: TimeInterval(expiresAt)), staff: stored.member)
    }

    public func logout(token: String) throws {
        let now = clock.unixNow
        try pool.write { db in try store.revokeToken(hash: Digest.sha256Hex(token), at: now, db) }
    }

    /// The enabled staff member a staff token belongs to, or `unauthorized` (a buyer's token included).
    public func authenticate(token: String) throws -> StaffPrincipal {
        guard !token.isEmpty, token.utf8.count <= 256 else { throw AccountError.unauthorized }
        let now = clock.unixNow
        guard let principal = try pool.readEach({ db in try store.principal(tokenHash: Digest.sha256Hex(token), at: now, db) }) else {
            throw AccountError.unauthorized
        }
        return principal
    }

    /// Drops expired and revoked tokens and old failed logins (the background sweeper).
    public func purgeSpentRecords() throws {
        let now = clock.unixNow
        try pool.write { db in try store.purgeTokens(before: now - 86_400, db) }
    }

    /// One audited change of an existing account, answered with the account after it.
    private func change(_ rawUsername: String, _ action: String, by actor: StaffActor,
                        _ apply: (StaffMember, Int64, any SQLConnection) throws -> Void) throws -> StaffMember {
        let username = rawUsername.lowercased()
        let now = clock.unixNow
        return try pool.write { db in
            guard let before = try store.find(username: username, db) else { throw StaffError.notFound(username) }
            try apply(before, now, db)
            guard let after = try store.find(before.id, db) else { throw StaffError.notFound(username) }
            try audit.record(actor, action, target: "staff:\(username)", before: before, after: after, at: now, db)
            return after
        }
    }

    static func normalizedUsername(_ raw: String) throws -> String {
        let username = raw.lowercased()
        guard usernameLength.contains(username.unicodeScalars.count),
              username.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }),
              let first = username.unicodeScalars.first, ("a"..."z").contains(first) else {
            throw ValidationError("username", .username, .range(usernameLength))
        }
        return username
    }

    static func validatePassword(_ password: String) throws {
        try Validate.length(password, passwordLength, field: "password")
        try Validate.printable(password, field: "password")
    }

    /// 20 characters from an alphabet without look-alikes (about 100 bits).
    static func oneTimePassword(_ random: SecureRandom) -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789")
        return String(random.bytes(20).map { alphabet[Int($0) % alphabet.count] })
    }
}
