import Foundation
import SQL

/// Articles by column authors, their likes and comments, and the week's top 10.
public struct ArticleService: Sendable {
    let pool: any Database
    /// The standby when there is one (see `Shop.reads`): pages a signed-out visitor sees.
    let publicReads: any Database
    let clock: Clock
    /// Comments and articles containing these are refused (`contentBlocked`).
    let blockedWords: BlockedWords
    private let profiles = ProfileStore()
    private let store = ArticleStore()
    private let comments = CommentStore()

    public static let maxContentLength = 100_000

    public init(pool: any Database, publicReads: (any Database)? = nil, clock: Clock, blockedWords: [String] = []) {
        self.pool = pool
        self.publicReads = publicReads ?? pool
        self.clock = clock
        self.blockedWords = BlockedWords(blockedWords)
    }

    public func categories() throws -> [ArticleCategory] {
        try publicReads.read { db in try store.categories(db) }
    }

    public func articles(category: ArticleCategoryID?, page: PageRequest, viewer: UserID?) throws -> Page<Article> {
        try listing(viewer: viewer) { db, now in
            if let category, try !store.categoryExists(category, db) { throw SocialError.articleCategoryNotFound }
            return try store.list(category: category, author: nil, at: now, page: page, db)
        }
    }

    public func articles(by author: UserID, page: PageRequest, viewer: UserID?) throws -> Page<Article> {
        try listing(viewer: viewer) { db, now in
            guard let basic = try profiles.basic(author, db), basic.isAuthor else { throw SocialError.authorNotFound }
            return try store.list(category: nil, author: author, at: now, page: page, db)
        }
    }

    /// Reads an article and counts the view, once per viewer (the user, else `clientIP`) and day.
    public func read(_ id: ArticleID, viewer: UserID?, clientIP: String) throws -> Article {
        let now = clock.unixNow
        let visitor = Visitor(user: viewer, clientIP: clientIP)
        return try pool.write { db in
            guard try store.countView(id, by: visitor, at: now, db), let row = try store.find(id, at: now, db) else {
                throw SocialError.articleNotFound
            }
            return try ArticleAssembler(viewer: viewer, now: now).assemble([row], db)[0]
        }
    }

    /// A published article as anyone sees it, without counting a view (for link previews).
    public func preview(_ id: ArticleID) throws -> Article {
        let now = clock.unixNow
        return try pool.read { db in
            guard let row = try store.find(id, at: now, db) else { throw SocialError.articleNotFound }
            return try ArticleAssembler(viewer: nil, now: now).assemble([row], db)[0]
        }
    }

    /// The week's top 10 by score = views in the last 7 days + 3 × readers who liked + 5 × readers who
    /// commented in them, each reader counted once (ties: newer first).
    public func top(viewer: UserID?) throws -> [Article] {
        let now = clock.unixNow
        let since = now - 7 * 86_400
        return try reads(for: viewer).read { db in
            let rows = try store.top(since: since, sinceDay: now / 86_400 - 6, at: now, limit: 10, db)
            return try ArticleAssembler(viewer: viewer, now: now).assemble(rows, db)
        }
    }

    /// Drops the record of who viewed what before yesterday: only today's can stop a view counting
    /// twice (yesterday's is kept for a clock that steps back a little).
    public func purgeViewLog() throws {
        let today = clock.unixNow / 86_400
        try pool.write { db in try store.purgeViews(before: today - 1, db) }
    }

    /// Column authors publish; anyone else is `notAnAuthor`.
    public func publish(_ draft: ArticleDraft, by author: UserID) throws -> Article {
        let draft = try validated(draft, creating: true)
        let now = clock.unixNow
        return try pool.write { db in
            try requireAuthorRole(author, db)
            if let category = draft.categoryID, try !store.categoryExists(category, db) {
                // Not 404: the article exists (or is being made); the category it names does not.
                throw SocialError.unknownArticleCategory
            }
            if try store.find(author: author, title: draft.title ?? "", db) != nil {
                throw SocialError.titleTaken
            }
            let id = try store.insert(author: author, draft, publishedAt: now, at: now, db)
            guard let row = try store.find(id, at: now, db) else { throw SocialError.articleNotFound }
            return try ArticleAssembler(viewer: author, now: now).assemble([row], db)[0]
        }
    }

    /// Its author edits an article while still a column author: anyone else is `forbidden`, and an
    /// author whose role was revoked is `notAnAuthor` (checked in the same transaction as the write).
    public func edit(_ id: ArticleID, _ draft: ArticleDraft, by user: UserID) throws -> Article {
        let draft = try validated(draft, creating: false)
        let now = clock.unixNow
        return try pool.write { db in
            try requireAuthor(id, user, db)
            try requireAuthorRole(user, db)
            if let category = draft.categoryID, try !store.categoryExists(category, db) {
                // Not 404: the article exists (or is being made); the category it names does not.
                throw SocialError.unknownArticleCategory
            }
            do {
                try store.update(id, draft, publishedAt: nil, at: now, db)
            } catch let error as any SQLError where error.isUniqueViolation {
                throw SocialError.titleTaken
            }
            guard let row = try store.find(id, at: Int64.max, db) else { throw SocialError.articleNotFound }
            return try ArticleAssembler(viewer: user, now: now).assemble([row], db)[0]
        }
    }

    /// Its author deletes an article, even after the author role was revoked.
    public func delete(_ id: ArticleID, by user: UserID) throws {
        try pool.write { db in
            try requireAuthor(id, user, db)
            try store.delete(id, db)
        }
    }

    public func like(_ id: ArticleID, by user: UserID) throws {
        let now = clock.unixNow
        try pool.write { db in
            guard try store.find(id, at: now, db) != nil else { throw SocialError.articleNotFound }
            try store.like(id, by: user, at: now, db)
        }
    }

    public func unlike(_ id: ArticleID, by user: UserID) throws {
        let now = clock.unixNow
        try pool.write { db in
            guard try store.find(id, at: now, db) != nil else { throw SocialError.articleNotFound }
            try store.unlike(id, by: user, db)
        }
    }

    /// Comments oldest first.
    public func comments(on id: ArticleID, page: PageRequest) throws -> Page<Comment> {
        let now = clock.unixNow
        return try pool.read { db in
            guard try store.find(id, at: now, db) != nil else { throw SocialError.articleNotFound }
            return try comments.list(id, page: page, db)
        }
    }

    /// 1..500 characters without a blocked word; `replyTo` must be a comment on the same article.
    public func comment(on id: ArticleID, content raw: String, replyTo: CommentID?, by user: UserID) throws -> Comment {
        let content = raw.trimmedInput
        try Validate.length(content, 1...500, field: "content")
        try Validate.printable(content, field: "content", allowing: Validate.lineBreaksAndTabs)
        try refuseBlocked(content, field: "content")
        let now = clock.unixNow
        return try pool.write { db in
            guard try store.find(id, at: now, db) != nil else { throw SocialError.articleNotFound }
            if let replyTo {
                guard let parent = try comments.find(replyTo, db), parent.articleID == id else { throw SocialError.invalidReplyTo }
            }
            let commentID = try comments.insert(article: id, user: user, content: content, replyTo: replyTo, at: now, db)
            guard let created = try comments.find(commentID, db) else { throw SocialError.commentNotFound }
            return created
        }
    }

    /// Its writer deletes a comment; anyone else is `forbidden`.
    public func deleteComment(_ id: CommentID, by user: UserID) throws {
        try pool.write { db in
            guard let comment = try comments.find(id, db) else { throw SocialError.commentNotFound }
            guard comment.userID == user else { throw SocialError.forbidden(.deleteOthersComment) }
            try comments.delete(comment, db)
        }
    }

    private func requireAuthor(_ id: ArticleID, _ user: UserID, _ db: any SQLConnection) throws {
        guard let author = try store.author(of: id, db) else { throw SocialError.articleNotFound }
        guard author == user else { throw SocialError.forbidden(.changeOthersArticle) }
    }

    private func requireAuthorRole(_ user: UserID, _ db: any SQLConnection) throws {
        guard let basic = try profiles.basic(user, db), basic.isAuthor else { throw SocialError.notAnAuthor }
    }

    private func listing(viewer: UserID?, _ rows: (any SQLConnection, Int64) throws -> Page<ArticleStore.ArticleRecord>) throws -> Page<Article> {
        let now = clock.unixNow
        return try reads(for: viewer).read { db in
            let page = try rows(db, now)
            let items = try ArticleAssembler(viewer: viewer, now: now).assemble(page.items, db)
            return Page(items: items, page: page.page, perPage: page.perPage, total: page.total)
        }
    }

    /// The draft's rules, then `contentBlocked` for a title, summary or body with a blocked word.
    func validated(_ draft: ArticleDraft, creating: Bool) throws -> ArticleDraft {
        let draft = try Self.validated(draft, creating: creating)
        for (field, text) in [("title", draft.title), ("summary", draft.summary), ("content", draft.content)] {
            if let text { try refuseBlocked(text, field: field) }
        }
        return draft
    }

    private func refuseBlocked(_ text: String, field: String) throws {
        if blockedWords.occur(in: text) { throw SocialError.contentBlocked(field: field) }
    }

    static func validated(_ draft: ArticleDraft, creating: Bool) throws -> ArticleDraft {
        var draft = draft
        draft.title = draft.title?.trimmedInput
        if creating || draft.title != nil {
            try Validate.length(draft.title ?? "", 1...100, field: "title")
            try Validate.printable(draft.title ?? "", field: "title")
        }
        if creating || draft.content != nil {
            try Validate.length(draft.content ?? "", 1...maxContentLength, field: "content")
        }
        if let summary = draft.summary { try Validate.length(summary, 0...300, field: "summary") }
        if let cover = draft.coverURL { try Validate.optionalURL(cover, field: "cover_url") }
        return draft
    }

    /// A signed-in viewer's page shows their own likes and follows, which they may have just
    /// changed: it is read from the primary. A signed-out visitor's may come from the standby.
    private func reads(for viewer: UserID?) -> any Database {
        viewer == nil ? publicReads : pool
    }
}
