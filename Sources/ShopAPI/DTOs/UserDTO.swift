import Foundation
import ShopCore

/// `User` on the wire: one's own account, phone masked.
struct UserResponse: Codable {
    let id: UserID
    let phone: String
    let nickname: String
    let avatarURL: String
    let signature: String
    let gender: User.Gender
    let isAuthor: Bool
    let createdAt: Date

    init(_ user: User) {
        id = user.id
        phone = user.maskedPhone
        nickname = user.nickname
        avatarURL = user.avatarURL
        signature = user.signature
        gender = user.gender
        isAuthor = user.isAuthor
        createdAt = user.createdAt
    }
}

/// `{"token", "expires_at", "user"}` after register and login.
struct SessionResponse: Codable {
    let token: String
    let expiresAt: Date
    let user: UserResponse

    init(_ session: Session) {
        token = session.token
        expiresAt = session.expiresAt
        user = UserResponse(session.user)
    }
}
