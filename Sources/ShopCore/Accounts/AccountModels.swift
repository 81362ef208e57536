import Foundation

/// A signed-up person, as the account owner sees it.
public struct User: Sendable, Equatable {
    public enum Gender: String, Sendable, Codable, CaseIterable { case male, female, unknown }

    public let id: UserID
    public let phone: String
    public var nickname: String
    public var avatarURL: String
    public var signature: String
    public var gender: Gender
    public var isAuthor: Bool
    public let createdAt: Date

    /// "13800138000" → "138****8000".
    public var maskedPhone: String {
        guard phone.count == 11 else { return phone }
        return phone.prefix(3) + "****" + phone.suffix(4)
    }
}

/// What a verification code may be used for.
public enum CodePurpose: String, Sendable, Codable, CaseIterable {
    case register
    case resetPassword = "reset_password"
}

/// A signed-in session: the bearer token (shown once) and the user.
public struct Session: Sendable {
    public let token: String
    public let expiresAt: Date
    public let user: User
}

/// The answer to a code request: when the client may ask again, and how long the code lives.
public struct CodeReceipt: Sendable, Equatable {
    public let retryAfter: Int
    public let expiresIn: Int
}

/// The fields `PATCH /me` may change; nil leaves a field as it is.
public struct ProfileChanges: Sendable {
    public var nickname: String?
    public var avatarURL: String?
    public var signature: String?
    public var gender: User.Gender?

    public init(nickname: String? = nil, avatarURL: String? = nil, signature: String? = nil, gender: User.Gender? = nil) {
        self.nickname = nickname
        self.avatarURL = avatarURL
        self.signature = signature
        self.gender = gender
    }
}
