import Crypto
import Foundation
import SQL

/// Public profiles, column authors, follows and the feed.
public struct SocialService: Sendable {
    let pool: any Database
    /// The standby when there is one (see `Shop.reads`): pages a signed-out visitor sees.
    let publicReads: any Database
    let clock: Clock
    private let profiles = ProfileStore()
    private let articles = ArticleStore()

    public static let maxFeedLimit = 50

    public init(pool: any Database, publicReads: (any Database)? = nil, clock: Clock) {
        self.pool = pool
        self.publicReads = publicReads ?? pool
        self.clock = clock
    }

    public func profile(_ id: UserID, viewer: UserID?) throws -> PublicProfile {
        let now = clock.unixNow
        guard let profile = try reads(for: viewer).read({ db in try profiles.profile(id, viewer: viewer, at: now, db) }) else {
            throw SocialError.userNotFound
        }
        return profile
    }

    public func authors(sort: AuthorSort, page: PageRequest, viewer: UserID?) throws -> Page<PublicProfile> {
        try profilesPage(viewer: viewer) { db in try profiles.authors(sort: sort, page: page, db) }
    }

    /// Follows a column author; following twice is the same as once.
    public func follow(_ author: UserID, by follower: UserID) throws {
        guard author != follower else { throw SocialError.cannotFollowSelf }
        let now = clock.unixNow
        try pool.write { db in
            guard let basic = try profiles.basic(author, db), basic.isAuthor else { throw SocialError.authorNotFound }
            try profiles.follow(follower, author, at: now, db)
        }
    }

    /// Unfollows; unfollowing someone not followed is fine.
    public func unfollow(_ author: UserID, by follower: UserID) throws {
        guard author != follower else { throw SocialError.cannotFollowSelf }
        try pool.write { db in
            guard try profiles.basic(author, db) != nil else { throw SocialError.authorNotFound }
            try profiles.unfollow(follower, author, db)
        }
    }

    public func following(_ user: UserID, page: PageRequest) throws -> Page<PublicProfile> {
        try profilesPage(viewer: user) { db in try profiles.following(user, page: page, db) }
    }

    public func followers(of user: UserID, page: PageRequest, viewer: UserID?) throws -> Page<PublicProfile> {
        try profilesPage(viewer: viewer) { db in
            guard try profiles.basic(user, db) != nil else { throw SocialError.userNotFound }
            return try profiles.followers(user, page: page, db)
        }
    }

    /// Articles by followed authors, newest first. The cursor is the (published_at, id) of the last
    /// item served, so articles published meanwhile never shift later pages: no duplicates, no gaps.
    public func feed(for user: UserID, cursor: String?, limit: Int) throws -> FeedPage {
        guard (1...Self.maxFeedLimit).contains(limit) else {
            throw ValidationError("limit", .range, .range(1...Self.maxFeedLimit))
        }
        let position = try cursor.map(Self.decodeCursor)
        let now = clock.unixNow
        return try pool.read { db in
            let rows = try articles.feed(for: user, before: position, at: now, limit: limit + 1, db)
            let page = Array(rows.prefix(limit))
            let items = try ArticleAssembler(viewer: user, now: now).assemble(page, db)
            let next = rows.count > limit ? page.last.map { Self.encodeCursor($0.publishedAt, $0.id.rawValue) } : nil
            return FeedPage(items: items, nextCursor: next)
        }
    }

    static func encodeCursor(_ publishedAt: Int64, _ id: Int64) -> String {
        Base64.encode(Array("v1:\(publishedAt):\(id)".utf8))
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeCursor(_ text: String) throws -> (publishedAt: Int64, id: Int64) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard text.count <= 64, let bytes = Base64.decode(base64) else { throw SocialError.invalidCursor }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":")
        guard parts.count == 3, parts[0] == "v1", let published = Int64(parts[1]), let id = Int64(parts[2]) else {
            throw SocialError.invalidCursor
        }
        return (published, id)
    }

    private func profilesPage(viewer: UserID?, _ ids: (any SQLConnection) throws -> Page<UserID>) throws -> Page<PublicProfile> {
        let now = clock.unixNow
        return try reads(for: viewer).read { db in
            try ids(db).map { id in
                guard let profile = try profiles.profile(id, viewer: viewer, at: now, db) else { throw SocialError.userNotFound }
                return profile
            }
        }
    }

    /// A signed-in viewer's page shows their own likes and follows, which they may have just
    /// changed: it is read from the primary. A signed-out visitor's may come from the standby.
    private func reads(for viewer: UserID?) -> any Database {
        viewer == nil ? publicReads : pool
    }
}
