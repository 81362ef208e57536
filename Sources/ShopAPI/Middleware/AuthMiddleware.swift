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

    /// The token of `Authorization: Bearer <token>` (the scheme in any case, blanks around the
    /// token ignored); nil for any other header. Read byte by byte: this runs on every signed-in
    /// request, and Foundation's `trimmingCharacters(in:)` was 5% of a cart request's CPU.
    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers["Authorization"] else { return nil }
        return bearerToken(in: header)
    }

    static func bearerToken(in header: String) -> String? {
        let bytes = header.utf8
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")),
              bytes[..<space].elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else { return nil }
        let rest = bytes[bytes.index(after: space)...]
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = rest.firstIndex(where: { !isBlank($0) }), let last = rest.lastIndex(where: { !isBlank($0) }) else {
            return nil
        }
        return String(Substring(rest[first...last]))
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

/// For routes both buyers and staff use (`POST /media`): a buyer's token or a staff token, the
/// uploader put in the context; neither → 401.
struct BuyerOrStaffAuthMiddleware: Middleware {
    let accounts: AccountService
    let staff: StaffService

    func respond(to request: Request, context: Context, next: Responder) throws -> Response {
        guard let token = AuthMiddleware.bearerToken(request) else { throw AccountError.unauthorized }
        var context = context
        do {
            context[SignedInUploader.self] = .buyer(try accounts.authenticate(token: token))
        } catch AccountError.unauthorized {
            context[SignedInUploader.self] = .staff(try staff.authenticate(token: token).id)
        }
        return try next(request, context)
    }
}

/// The buyer or staff member behind `BuyerOrStaffAuthMiddleware`.
enum SignedInUploader: ContextKey {
    typealias Value = Uploader
}

extension Context {
    func uploader() throws -> Uploader {
        guard let uploader = self[SignedInUploader.self] else { throw AccountError.unauthorized }
        return uploader
    }
}
