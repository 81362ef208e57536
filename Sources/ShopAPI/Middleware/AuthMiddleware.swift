import HTTP
import ShopCore

/// Requires `Authorization: Bearer <token>` and puts the signed-in user's id in the context.
struct AuthMiddleware: Middleware {
    let accounts: AccountService
    /// When false, a request without a token passes through unsigned (public routes that personalise).
    var required = true

    func respond(to request: Request, context: Context, next: Responder) throws -> Response {
        var context = context
        if let token = Self.bearerToken(request) {
            do {
                context[SignedInUser.self] = try accounts.authenticate(token: token)
            } catch AccountError.unauthorized where !required {
                context[SignedInUser.self] = nil
            }
        } else if required {
            throw AccountError.unauthorized
        }
        return try next(request, context)
    }

    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

/// The signed-in user, put in the context by `AuthMiddleware`.
enum SignedInUser: ContextKey {
    typealias Value = UserID
}

extension Context {
    /// The signed-in user; routes behind `AuthMiddleware` always have one.
    func user() throws -> UserID {
        guard let user = self[SignedInUser.self] else { throw AccountError.unauthorized }
        return user
    }

    /// The signed-in user, if any (public routes).
    var optionalUser: UserID? { self[SignedInUser.self] }
}
