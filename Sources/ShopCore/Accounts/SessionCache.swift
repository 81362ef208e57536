import Dispatch
import Synchronization

/// Who a bearer token belongs to, kept by this node for at most `lifetimeMilliseconds`
/// (`auth.session_cache_ms`, at most 1,000) after it was read from the database, so a signed-in
/// request does not pay a statement (on PostgreSQL a round trip) for its token every time.
///
/// What that bound means: a token revoked through another node or process (logout, a password
/// reset, a staff ban, the command line) stops working here within `lifetimeMilliseconds`. One
/// revoked through this node stops at once: every revocation path calls `forgetAll()` after its
/// transaction, and an answer read before that call is not kept after it (`keep` compares
/// generations), so a lookup racing the revocation cannot put the old answer back. A token's
/// expiry is never late: each use compares its `expires_at` with the shop's clock. Only tokens
/// found active are kept, so a token issued on another node a moment ago works at once; an
/// unknown one is read from the database each time.
public final class SessionCache: Sendable {
    struct Entry {
        let user: UserID
        let expiresAt: Int64
        /// When it was read from the database, in monotonic nanoseconds (`DispatchTime`).
        let readAt: UInt64
    }

    /// How long an answer is used after it was read; 0 keeps nothing.
    public let lifetimeMilliseconds: Int
    /// Past this many entries, those past their lifetime are dropped, and when all are fresh
    /// nothing more is kept until they age: memory stays bounded whatever the traffic.
    let maxEntries: Int
    private let state = Mutex((entries: [String: Entry](), generation: UInt64(0)))

    public init(lifetimeMilliseconds: Int, maxEntries: Int = 100_000) {
        precondition((0...1_000).contains(lifetimeMilliseconds), "a session is kept at most one second")
        self.lifetimeMilliseconds = lifetimeMilliseconds
        self.maxEntries = maxEntries
    }

    private var lifetimeNanoseconds: UInt64 { UInt64(lifetimeMilliseconds) * 1_000_000 }

    /// The user of the token whose SHA-256 is `tokenHash`, if it was read within the lifetime and
    /// has not expired at `now` (unix seconds); nil means: ask the database.
    func user(tokenHash: String, at now: Int64) -> UserID? {
        guard lifetimeMilliseconds > 0 else { return nil }
        let clock = DispatchTime.now().uptimeNanoseconds
        return state.withLock { state in
            guard let entry = state.entries[tokenHash] else { return nil }
            guard clock &- entry.readAt < lifetimeNanoseconds, entry.expiresAt > now else {
                state.entries[tokenHash] = nil
                return nil
            }
            return entry.user
        }
    }

    /// Taken before a lookup in the database; `keep` keeps its answer only if no revocation came
    /// through this node in between.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Keeps what the database said of a token, read after `generation` was taken.
    func keep(tokenHash: String, user: UserID, expiresAt: Int64, readAfter generation: UInt64) {
        guard lifetimeMilliseconds > 0 else { return }
        let clock = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= maxEntries {
                let lifetime = lifetimeNanoseconds
                state.entries = state.entries.filter { clock &- $0.value.readAt < lifetime }
                guard state.entries.count < maxEntries else { return }
            }
            state.entries[tokenHash] = Entry(user: user, expiresAt: expiresAt, readAt: clock)
        }
    }

    /// After a revocation through this node: nothing read before it is used or kept again.
    func forgetAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.generation &+= 1
        }
    }

    /// Entries kept now (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
