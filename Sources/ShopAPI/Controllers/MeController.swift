import HTTP
import ShopCore

/// `/me`: one's own profile.
struct MeController {
    let accounts: AccountService

    /// Only these fields can be written; `id`, `phone`, `is_author` and the rest are ignored.
    struct UpdateProfileRequest: Decodable {
        let nickname: String?
        let avatarURL: String?
        let signature: String?
        let gender: User.Gender?
    }

    func register(_ signedIn: RouteGroup) {
        signedIn.get("/me", use: show).patch("/me", use: update)
    }

    /// The signed-in user's account.
    func show(_ request: Request, _ context: Context) throws -> Response {
        try .json(UserResponse(accounts.user(try context.user())))
    }

    /// Changes nickname, avatar_url, signature or gender.
    func update(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(UpdateProfileRequest.self)
        let user = try accounts.updateProfile(try context.user(), ProfileChanges(
            nickname: body.nickname, avatarURL: body.avatarURL, signature: body.signature, gender: body.gender))
        return try .json(UserResponse(user))
    }
}
