import SQL

/// Refused coupon codes, counted per buyer and per client address over `coupons.failure_window_seconds`
/// as failed logins are: at `coupons.max_failures_per_buyer` refusals of a buyer, or
/// `coupons.max_failures_per_ip` from one address, previews and checkouts with a code are refused
/// `tooManyAttempts` until the oldest refusal leaves the window. The counts are rows in the database,
/// so every node sees the same. A refusal is counted once answered: requests already in flight when
/// the limit is reached still get their answer, so a burst may pass it by the requests in flight.
public struct CouponAttempts: Sendable {
    let pool: any Database
    let settings: Config.Coupons
    let clock: Clock
    private let failures = CouponFailureStore()

    public init(pool: any Database, settings: Config.Coupons, clock: Clock) {
        self.pool = pool
        self.settings = settings
        self.clock = clock
    }

    /// Throws `tooManyAttempts` when this buyer or this address is at its limit; called inside
    /// the transaction that then tries the code.
    func check(user: UserID, clientIP: String, at now: Int64, _ db: any SQLConnection) throws {
        let window = Int64(settings.failureWindowSeconds)
        for (current, limit) in [(try failures.window(user: user, since: now - window, db), settings.maxFailuresPerBuyer),
                                 (try failures.window(clientIP: clientIP, since: now - window, db), settings.maxFailuresPerIP)]
        where current.count >= limit {
            throw CouponError.tooManyAttempts(
                retryAfter: VerificationService.retryAfter(oldest: current.oldest, window: window, now: now))
        }
    }

    /// Runs `body` (a preview or a checkout with a code); a code it refuses is counted against
    /// `user` and `clientIP`, then the refusal is rethrown. A refusal for too many attempts is not counted.
    func counting<T>(user: UserID, clientIP: String, at now: Int64, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CouponError {
            if case .tooManyAttempts = error { throw error }
            // a lost count on power loss costs a guesser's one extra try, never money: no fsync
            try pool.write(durability: .processCrash) { db in try failures.record(user: user, clientIP: clientIP, at: now, db) }
            throw error
        }
    }

    /// Drops refusals that have left the window.
    public func purgeSpentRecords() throws {
        let before = clock.unixNow - Int64(settings.failureWindowSeconds)
        try pool.write(durability: .processCrash) { db in try failures.purge(before: before, db) }
    }
}
