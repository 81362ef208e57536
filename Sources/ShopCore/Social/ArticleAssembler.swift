import Crypto
import Foundation
import SQL

/// Turns article rows into `Article`s with their author's profile and the viewer's `liked`.
struct ArticleAssembler {
    let viewer: UserID?
    let now: Int64
    private let profiles = ProfileStore()
    private let store = ArticleStore()

    init(viewer: UserID?, now: Int64) {
        self.viewer = viewer
        self.now = now
    }

    func assemble(_ rows: [ArticleStore.ArticleRecord], _ db: any SQLConnection) throws -> [Article] {
        var authors: [UserID: PublicProfile] = [:]
        return try rows.map { row in
            if authors[row.authorID] == nil {
                authors[row.authorID] = try profiles.profile(row.authorID, viewer: viewer, at: now, db)
            }
            guard let author = authors[row.authorID] else { throw SocialError.userNotFound }
            return Article(id: row.id, title: row.title, summary: row.summary, coverURL: row.coverURL, content: row.content,
                           categoryID: row.categoryID, author: author, views: row.views, likesCount: row.likesCount,
                           commentsCount: row.commentsCount, liked: try viewer.map { try store.liked(row.id, by: $0, db) },
                           isFavorite: try viewer.map { try FavoriteStore().isFavorite(row.id, by: $0, db) },
                           publishedAt: Date(timeIntervalSince1970: TimeInterval(row.publishedAt)))
        }
    }
}
