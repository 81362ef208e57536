import Bulkheads
import HTTP
import ShopCore

/// `/auth`: verification codes, register, login, logout, password reset.
struct AuthController {
    let accounts: AccountService
    let verification: VerificationService

    struct CodeRequest: Decodable {
        let phone: String
        let purpose: CodePurpose
    }

    struct CodeResponse: Codable {
        let retryAfter: Int
        let expiresIn: Int
    }

    struct RegisterRequest: Decodable {
        let phone: String
        let code: String
        let passwordMD5: String?
        let password: String?
        let nickname: String?
    }

    struct LoginRequest: Decodable {
        let phone: String
        let passwordMD5: String?
        let password: String?
    }

    struct ResetRequest: Decodable {
        let phone: String
        let code: String
        let passwordMD5: String?
        let password: String?
    }

    func register(public routes: RouteGroup, signedIn: RouteGroup) {
        // the three that hash a password run on the hashing bulkhead, never on a request thread
        routes.post("/auth/verification-codes", use: requestCode)
            .post("/auth/register", on: .hashing, use: registerAccount)
            .post("/auth/login", on: .hashing, use: login)
            .post("/auth/password-reset", on: .hashing, use: resetPassword)
        signedIn.post("/auth/logout", use: logout)
    }

    /// Sends a code; 429 `code_cooldown` with `retry_after` drives the client's countdown.
    func requestCode(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(CodeRequest.self)
        let receipt = try verification.requestCode(phone: body.phone, purpose: body.purpose, clientIP: request.clientAddress)
        return try .json(CodeResponse(retryAfter: receipt.retryAfter, expiresIn: receipt.expiresIn), status: .accepted)
    }

    /// Creates an account from a register code and signs it in.
    func registerAccount(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(RegisterRequest.self)
        let credential = try Credential(passwordMD5: body.passwordMD5, password: body.password)
        let session = try accounts.register(phone: body.phone, code: body.code, credential: credential, nickname: body.nickname,
                                           clientIP: request.clientAddress)
        return try .json(SessionResponse(session), status: .created)
    }

    /// Signs in with a phone and the password (or its MD5).
    func login(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(LoginRequest.self)
        let credential = try Credential(passwordMD5: body.passwordMD5, password: body.password)
        let session = try accounts.login(phone: body.phone, credential: credential, clientIP: request.clientAddress)
        return try .json(SessionResponse(session))
    }

    /// Revokes the token of this request.
    func logout(_ request: Request, _ context: Context) throws -> Response {
        if let token = AuthMiddleware.bearerToken(request) { try accounts.logout(token: token) }
        return .empty()
    }

    /// Sets a new password from a reset code; every token of the user stops working.
    func resetPassword(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(ResetRequest.self)
        let credential = try Credential(passwordMD5: body.passwordMD5, password: body.password)
        try accounts.resetPassword(phone: body.phone, code: body.code, credential: credential, clientIP: request.clientAddress)
        return .empty()
    }
}
