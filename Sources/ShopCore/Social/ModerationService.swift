import Foundation
import SQL

/// Staff's moderation of what buyers write and read: comments, articles and column authors.
/// Every change is audited in its own transaction.
///
/// - A deleted comment is gone, as when its writer deletes it: the article's `comments_count`
///   drops by one and the weekly top 10, which counts readers from the `comments` rows, stops
///   counting it. Its text stays in the audit entry's `before`.
/// - A hidden article stays in the database (row, likes, comments) but buyers never see it: not
///   in lists, the feed, the top 10, favourites or a profile's count, and its detail, comments,
///   likes and share page answer 404 (`ArticleStore.visible`).
public struct ModerationService: Sendable {
    let pool: any Database
    let clock: Clock
    private let store = ModerationStore()
    private let comments = CommentStore()
    private let audit = AuditTrail()

    public static let queryLength = 1...40

    public init(pool: any Database, clock: Clock) {
        self.pool = pool
        self.clock = clock
    }

    /// Comments on every article (hidden ones included), newest first; `query` matches the text,
    /// the writer's nickname or the article's title.
    public func comments(matching rawQuery: String?, page: PageRequest) throws -> Page<ModeratedComment> {
        let query = rawQuery?.trimmedInput
        if let query, !query.isEmpty {
            try Validate.length(query, Self.queryLength, field: "q")
            try Validate.printable(query, field: "q")
        }
        return try pool.read { db in try store.comments(matching: query?.isEmpty == false ? query : nil, page, db) }
    }

    /// Deletes a comment (replies to it stay, no longer a reply to anything).
    public func deleteComment(_ id: CommentID, by actor: StaffActor) throws {
        let now = clock.unixNow
        try pool.write { db in
            guard let before = try store.comment(id, db), let comment = try comments.find(id, db) else {
                throw SocialError.commentNotFound
            }
            try comments.delete(comment, db)
            try audit.record(actor, "comment.delete", target: "comment:\(id)", before: before, at: now, db)
        }
    }

    /// Hides an article from buyers for good (no route shows it again); hiding it twice is harmless.
    @discardableResult
    public func hideArticle(_ id: ArticleID, by actor: StaffActor) throws -> ModeratedArticle {
        let now = clock.unixNow
        return try pool.write { db in
            guard let before = try store.article(id, db) else { throw SocialError.articleNotFound }
            try store.hide(id, at: now, db)
            guard let after = try store.article(id, db) else { throw SocialError.articleNotFound }
            try audit.record(actor, "article.hide", target: "article:\(id)", before: before, after: after, at: now, db)
            return after
        }
    }

    /// Grants or revokes the column-author role of a user; their published articles stay either way.
    @discardableResult
    public func setAuthor(_ isAuthor: Bool, user id: UserID, by actor: StaffActor) throws -> AuthorRole {
        try changeAuthor(isAuthor, by: actor) { db in try store.authorRole(id, db) }
    }

    /// The command line's form (`shop authors grant|revoke PHONE`).
    @discardableResult
    public func setAuthor(_ isAuthor: Bool, phone rawPhone: String, by actor: StaffActor) throws -> AuthorRole {
        let phone = try PhoneNumber.normalize(rawPhone)
        return try changeAuthor(isAuthor, by: actor) { db in
            guard let id = try db.scalar("SELECT id FROM users WHERE phone = \(phone)", as: UserID.self) else { return nil }
            return try store.authorRole(id, db)
        }
    }

    private func changeAuthor(_ isAuthor: Bool, by actor: StaffActor,
                              _ find: (any SQLConnection) throws -> AuthorRole?) throws -> AuthorRole {
        let now = clock.unixNow
        return try pool.write { db in
            guard let before = try find(db) else { throw SocialError.userNotFound }
            try store.setAuthor(isAuthor, user: before.userID, at: now, db)
            let after = AuthorRole(userID: before.userID, isAuthor: isAuthor)
            try audit.record(actor, isAuthor ? "author.grant" : "author.revoke", target: "user:\(before.userID)",
                             before: before, after: after, at: now, db)
            return after
        }
    }
}

extension Shop {
    /// Staff's moderation of comments, articles and column authors.
    public var moderation: ModerationService { ModerationService(pool: pool, clock: clock) }
}
