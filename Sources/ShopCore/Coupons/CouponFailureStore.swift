import SQL

/// SQL for `coupon_failures`: the refused codes behind a coupon `too_many_attempts`.
struct CouponFailureStore {
    struct Window {
        let count: Int
        let oldest: Int64?
    }

    func record(user: UserID, clientIP: String, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("INSERT INTO coupon_failures (user_id, client_ip, failed_at) VALUES (\(user), \(clientIP), \(now))")
    }

    func window(user: UserID, since: Int64, _ db: any SQLConnection) throws -> Window {
        try window("user_id = \(user) AND failed_at > \(since)", db)
    }

    func window(clientIP: String, since: Int64, _ db: any SQLConnection) throws -> Window {
        try window("client_ip = \(clientIP) AND failed_at > \(since)", db)
    }

    func purge(before: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM coupon_failures WHERE failed_at < \(before)")
    }

    /// The failures matching `condition` (a WHERE clause with its values).
    private func window(_ condition: SQL, _ db: any SQLConnection) throws -> Window {
        let query: SQL = "SELECT COUNT(*) AS n, MIN(failed_at) AS oldest FROM coupon_failures WHERE \(condition)"
        guard let row = try db.queryOne(query) else { return Window(count: 0, oldest: nil) }
        return Window(count: try row.decode("n"), oldest: try row.decode("oldest"))
    }
}
