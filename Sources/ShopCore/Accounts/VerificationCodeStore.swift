import SQLite

/// SQL for `verification_codes`: codes are stored as an HMAC, never as digits.
struct VerificationCodeStore {
    struct Code {
        let id: Int64
        let codeHash: String
        let sentAt: Int64
        let expiresAt: Int64
        let attempts: Int
        let usedAt: Int64?
    }

    /// The newest code for this phone and purpose that no later code replaced.
    func current(phone: String, purpose: CodePurpose, _ db: Connection) throws -> Code? {
        try db.legacyQueryOne("""
            SELECT id, code_hash, sent_at, expires_at, attempts, used_at FROM verification_codes
            WHERE phone = ? AND purpose = ? AND superseded = 0 ORDER BY sent_at DESC, id DESC LIMIT 1
            """, phone, purpose.rawValue).map { row in
            Code(id: try row.int64("id"), codeHash: try row.string("code_hash"), sentAt: try row.int64("sent_at"),
                 expiresAt: try row.int64("expires_at"), attempts: try row.int("attempts"), usedAt: try row.optionalInt64("used_at"))
        }
    }

    /// Codes requested for this phone (any purpose) since `since`, and the oldest of them.
    func sentCount(phone: String, since: Int64, _ db: Connection) throws -> (count: Int, oldest: Int64?) {
        try count("SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM verification_codes WHERE phone = ? AND sent_at > ?", phone, since, db)
    }

    func sentCount(clientIP: String, since: Int64, _ db: Connection) throws -> (count: Int, oldest: Int64?) {
        try count("SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM verification_codes WHERE client_ip = ? AND sent_at > ?", clientIP, since, db)
    }

    /// Stores a new code and retires the older ones for the same phone and purpose.
    func replace(phone: String, purpose: CodePurpose, codeHash: String, clientIP: String, at now: Int64,
                 expiresAt: Int64, delivered: Bool, _ db: Connection) throws {
        try db.legacyRun("UPDATE verification_codes SET superseded = 1 WHERE phone = ? AND purpose = ? AND superseded = 0",
                   phone, purpose.rawValue)
        try db.legacyRun("""
            INSERT INTO verification_codes (phone, purpose, code_hash, client_ip, sent_at, expires_at, delivered)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, phone, purpose.rawValue, codeHash, clientIP, now, expiresAt, delivered)
    }

    func countFailedAttempt(_ id: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE verification_codes SET attempts = attempts + 1 WHERE id = ?", id)
    }

    func markUsed(_ id: Int64, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE verification_codes SET used_at = ? WHERE id = ? AND used_at IS NULL", now, id)
    }

    /// Drops codes older than `before` (the daily caps look back one day).
    func purge(before: Int64, _ db: Connection) throws {
        try db.legacyRun("DELETE FROM verification_codes WHERE sent_at < ?", before)
    }

    private func count(_ sql: String, _ key: String, _ since: Int64, _ db: Connection) throws -> (count: Int, oldest: Int64?) {
        guard let row = try db.legacyQueryOne(sql, key, since) else { return (0, nil) }
        return (try row.int("n"), try row.optionalInt64("oldest"))
    }
}
