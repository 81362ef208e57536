import Foundation
import ShopCore

/// A buyer as staff see them (`GET /admin/users`): the whole phone (buyers' own routes and
/// everyone else's see it masked or not at all), the author role and the ban.
struct AdminUserResponse: Codable {
    let id: UserID
    let phone: String
    let nickname: String
    let avatarURL: String
    let isAuthor: Bool
    let banned: Bool
    @ExplicitNull var bannedAt: Date?
    @ExplicitNull var banReason: String?
    let createdAt: Date

    init(_ buyer: Buyer) {
        id = buyer.id
        phone = buyer.phone
        nickname = buyer.nickname
        avatarURL = buyer.avatarURL
        isAuthor = buyer.isAuthor
        banned = buyer.isBanned
        bannedAt = buyer.bannedAt.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        banReason = buyer.banReason
        createdAt = Date(timeIntervalSince1970: TimeInterval(buyer.createdAt))
    }
}

/// `POST /admin/users/{id}/ban`: why (shown to staff, never to the buyer; may be empty).
struct BanRequest: Decodable {
    let reason: String
}
