import Foundation
import SQL

/// Staff's side of buyers' accounts: finding them, banning and unbanning. A ban revokes every
/// token of the buyer in the same transaction (their next signed-in request is 401) and their
/// sign-ins answer `accountBanned` until the ban is lifted (other nodes may accept a token
/// for up to `auth.session_cache_ms` more: `SessionCache`). Each change is audited.
public struct BuyerAdministration: Sendable {
    let pool: any Database
    let clock: Clock
    /// This node's kept tokens, forgotten after a ban.
    let sessions: SessionCache?
    private let store = BuyerStore()
    private let tokens = TokenStore()
    private let audit = AuditTrail()

    public static let reasonLength = 0...200
    public static let queryLength = 1...40

    public init(pool: any Database, clock: Clock, sessions: SessionCache? = nil) {
        self.pool = pool
        self.clock = clock
        self.sessions = sessions
    }

    /// Buyers whose phone or nickname holds `query` (all of them without one), newest first.
    public func buyers(matching rawQuery: String?, page: PageRequest) throws -> Page<Buyer> {
        let query = rawQuery?.trimmedInput
        if let query, !query.isEmpty {
            try Validate.length(query, Self.queryLength, field: "q")
            try Validate.printable(query, field: "q")
        }
        return try pool.read { db in try store.page(matching: query?.isEmpty == false ? query : nil, page, db) }
    }

    public func buyer(_ id: UserID) throws -> Buyer {
        guard let buyer = try pool.read({ db in try store.find(id, db) }) else { throw SocialError.userNotFound }
        return buyer
    }

    /// Bans the buyer; banning again keeps the first ban's time and takes the new reason.
    public func ban(_ id: UserID, reason: String, by actor: StaffActor) throws -> Buyer {
        try change(.id(id), ban: true, reason: reason, by: actor)
    }

    public func unban(_ id: UserID, by actor: StaffActor) throws -> Buyer {
        try change(.id(id), ban: false, reason: nil, by: actor)
    }

    /// The command line's form: the buyer named by phone.
    public func ban(phone: String, reason: String, by actor: StaffActor) throws -> Buyer {
        try change(.phone(try PhoneNumber.normalize(phone)), ban: true, reason: reason, by: actor)
    }

    public func unban(phone: String, by actor: StaffActor) throws -> Buyer {
        try change(.phone(try PhoneNumber.normalize(phone)), ban: false, reason: nil, by: actor)
    }

    private enum Key {
        case id(UserID)
        case phone(String)
    }

    private func change(_ key: Key, ban: Bool, reason rawReason: String?, by actor: StaffActor) throws -> Buyer {
        let reason = rawReason?.trimmedInput
        if let reason {
            try Validate.length(reason, Self.reasonLength, field: "reason")
            try Validate.printable(reason, field: "reason")
        }
        let now = clock.unixNow
        defer { if ban { sessions?.forgetAll() } }
        return try pool.write { db in
            let found: Buyer? = switch key {
            case .id(let id): try store.find(id, db)
            case .phone(let phone): try store.find(phone: phone, db)
            }
            guard let before = found else { throw SocialError.userNotFound }
            if ban {
                try store.ban(before.id, reason: reason ?? "", at: now, db)
                try tokens.revokeAll(user: before.id, at: now, db)
            } else {
                try store.unban(before.id, at: now, db)
            }
            guard let after = try store.find(before.id, db) else { throw SocialError.userNotFound }
            try audit.record(actor, ban ? "user.ban" : "user.unban", target: "user:\(before.id)", before: before, after: after,
                             at: now, db)
            return after
        }
    }
}

extension Shop {
    /// Staff's side of buyers' accounts: search, ban, unban.
    public var buyers: BuyerAdministration { BuyerAdministration(pool: pool, clock: clock, sessions: accounts.sessions) }
}
