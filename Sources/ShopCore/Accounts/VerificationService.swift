import Crypto
import SQL

/// SMS verification codes: issue with cooldown and daily caps, check with limited tries.
public struct VerificationService: Sendable {
    let pool: any Database
    let settings: Config.Verification
    let clock: Clock
    let random: SecureRandom
    let sender: any CodeSender
    let pepper: String
    private let codes = VerificationCodeStore()
    private let users = UserStore()

    static let day: Int64 = 86_400

    public init(pool: any Database, settings: Config.Verification, pepper: String, clock: Clock,
                random: SecureRandom, sender: any CodeSender) {
        self.pool = pool
        self.settings = settings
        self.pepper = pepper
        self.clock = clock
        self.random = random
        self.sender = sender
    }

    /// Sends a new 6-digit code (replacing any older one) unless the cooldown or a daily cap says no.
    /// A reset for an unknown phone is answered the same way, but nothing is sent.
    public func requestCode(phone rawPhone: String, purpose: CodePurpose, clientIP: String) throws -> CodeReceipt {
        let phone = try PhoneNumber.normalize(rawPhone)
        let now = clock.unixNow
        let code = random.digits(6)
        let cooldown = Int64(settings.cooldownSeconds)
        let deliver: Bool = try pool.write { db in
            // the cooldown and the daily caps are read, then a code is written: one request at a time
            try db.serialize(on: "codes:phone:\(phone)", "codes:ip:\(clientIP)")
            let known = try users.find(phone: phone, db) != nil
            if purpose == .register && known { throw AccountError.phoneTaken }
            if let current = try codes.current(phone: phone, purpose: purpose, db), current.sentAt + cooldown > now {
                throw AccountError.codeCooldown(retryAfter: Int(current.sentAt + cooldown - now))
            }
            let since = now - Self.day
            let byPhone = try codes.sentCount(phone: phone, since: since, db)
            if byPhone.count >= settings.dailyLimitPerPhone {
                throw AccountError.codeLimitReached(retryAfter: Self.retryAfter(oldest: byPhone.oldest, window: Self.day, now: now))
            }
            let byIP = try codes.sentCount(clientIP: clientIP, since: since, db)
            if byIP.count >= settings.dailyLimitPerIP {
                throw AccountError.codeLimitReached(retryAfter: Self.retryAfter(oldest: byIP.oldest, window: Self.day, now: now))
            }
            let deliver = purpose == .register || known
            try codes.replace(phone: phone, purpose: purpose, codeHash: hash(code, phone: phone, purpose: purpose),
                              clientIP: clientIP, at: now, expiresAt: now + Int64(settings.lifetimeSeconds),
                              delivered: deliver, db)
            return deliver
        }
        if deliver {
            sender.send(CodeMessage(phone: phone, purpose: purpose.rawValue, code: code, sentAt: clock.now))
        }
        return CodeReceipt(retryAfter: settings.cooldownSeconds, expiresIn: settings.lifetimeSeconds)
    }

    /// The outcome of checking a code inside a caller's transaction.
    enum Check {
        case valid
        case invalid
    }

    /// Checks `code` inside the caller's write transaction without using it up: a wrong one costs one
    /// of the allowed tries. The caller commits either way and throws `invalidCode` after.
    func check(_ code: String, phone: String, purpose: CodePurpose, at now: Int64, _ db: any SQLConnection) throws -> Check {
        try matching(code, phone: phone, purpose: purpose, at: now, db) == nil ? .invalid : .valid
    }

    /// Checks `code` inside the caller's write transaction: a right code is marked used; a wrong one
    /// costs one of the allowed tries. The caller commits either way and throws `invalidCode` after.
    func consume(_ code: String, phone: String, purpose: CodePurpose, at now: Int64, _ db: any SQLConnection) throws -> Check {
        guard let current = try matching(code, phone: phone, purpose: purpose, at: now, db) else { return .invalid }
        try codes.markUsed(current.id, at: now, db)
        return .valid
    }

    /// The current, unused, unexpired code for this phone and purpose if `code` is it; a wrong
    /// code counts a failed try on the current one.
    private func matching(_ code: String, phone: String, purpose: CodePurpose, at now: Int64,
                          _ db: any SQLConnection) throws -> VerificationCodeStore.Code? {
        guard let current = try codes.current(phone: phone, purpose: purpose, db),
              current.usedAt == nil, current.expiresAt > now, current.attempts < settings.maxAttempts else {
            return nil
        }
        let expected = Array(current.codeHash.utf8)
        let given = Array(hash(code, phone: phone, purpose: purpose).utf8)
        guard constantTimeEquals(expected, given) else {
            try codes.countFailedAttempt(current.id, db)
            return nil
        }
        return current
    }

    /// Drops codes older than the daily caps look back (two days, to be safe).
    public func purgeSpentCodes() throws {
        let before = clock.unixNow - 2 * Self.day
        try pool.write { db in try codes.purge(before: before, db) }
    }

    /// Whether `code` is shaped like one of ours (6 digits).
    static func validateFormat(_ code: String) throws {
        guard code.utf8.count == 6, code.isASCIIDigits else {
            throw ValidationError("code", .verificationCode)
        }
    }

    private func hash(_ code: String, phone: String, purpose: CodePurpose) -> String {
        Hex.encode(HMAC.sha256(key: Array(pepper.utf8), message: Array("\(phone):\(purpose.rawValue):\(code)".utf8)))
    }

    static func retryAfter(oldest: Int64?, window: Int64, now: Int64) -> Int {
        max(1, Int((oldest ?? now) + window - now))
    }
}
