import SQL

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
    func current(phone: String, purpose: CodePurpose, _ db: any SQLConnection) throws -> Code? {
        try db.queryOne("""
            SELECT id, code_hash, sent_at, expires_at, attempts, used_at FROM verification_codes
            WHERE phone = \(phone) AND purpose = \(purpose) AND superseded = 0 ORDER BY sent_at DESC, id DESC LIMIT 1
            """).map { row in
            Code(id: try row.decode("id"), codeHash: try row.decode("code_hash"), sentAt: try row.decode("sent_at"),
                 expiresAt: try row.decode("expires_at"), attempts: try row.decode("attempts"), usedAt: try row.decode("used_at"))
        }
    }

    /// Codes requested for this phone (any purpose) since `since`, and the oldest of them.
    func sentCount(phone: String, since: Int64, _ db: any SQLConnection) throws -> (count: Int, oldest: Int64?) {
        try count("phone = \(phone) AND sent_at > \(since)", db)
    }

    func sentCount(clientIP: String, since: Int64, _ db: any SQLConnection) throws -> (count: Int, oldest: Int64?) {
        try count("client_ip = \(clientIP) AND sent_at > \(since)", db)
    }

    /// Stores a new code and retires the older ones for the same phone and purpose.
    func replace(phone: String, purpose: CodePurpose, codeHash: String, clientIP: String, at now: Int64,
                 expiresAt: Int64, delivered: Bool, _ db: any SQLConnection) throws {
        try db.run("UPDATE verification_codes SET superseded = 1 WHERE phone = \(phone) AND purpose = \(purpose) AND superseded = 0")
        try db.run("""
            INSERT INTO verification_codes (phone, purpose, code_hash, client_ip, sent_at, expires_at, delivered)
            VALUES (\(phone), \(purpose), \(codeHash), \(clientIP), \(now), \(expiresAt), \(delivered))
            """)
    }

    func countFailedAttempt(_ id: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE verification_codes SET attempts = attempts + 1 WHERE id = \(id)")
    }

    func markUsed(_ id: Int64, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE verification_codes SET used_at = \(now) WHERE id = \(id) AND used_at IS NULL")
    }

    /// Drops codes older than `before` (the daily caps look back one day).
    func purge(before: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM verification_codes WHERE sent_at < \(before)")
    }

    /// The codes matching `condition` (a WHERE clause with its values).
    private func count(_ condition: SQL, _ db: any SQLConnection) throws -> (count: Int, oldest: Int64?) {
        let query: SQL = "SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM verification_codes WHERE \(condition)"
        guard let row = try db.queryOne(query) else { return (0, nil) }
        return (try row.decode("n"), try row.decode("oldest"))
    }
}

/// A purpose column holds one of the enum's raw values; anything else is a corrupt row.
extension CodePurpose: SQLCodable {}
