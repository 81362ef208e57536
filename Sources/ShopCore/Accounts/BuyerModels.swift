import Foundation

/// A buyer's account as staff see it (`GET /admin/users`): the whole phone, the column-author
/// role and the ban; never the password hash.
public struct Buyer: Sendable, Equatable, Codable {
    public let id: UserID
    public let phone: String
    public let nickname: String
    public let avatarURL: String
    public let isAuthor: Bool
    /// When staff banned the buyer (unix seconds); nil while they may sign in.
    public let bannedAt: Int64?
    public let banReason: String?
    public let createdAt: Int64

    public var isBanned: Bool { bannedAt != nil }
}
