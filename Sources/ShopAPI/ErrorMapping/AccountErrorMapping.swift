import HTTP
import ShopCore

extension ErrorMapping {
    /// Accounts: codes, credentials and tokens.
    @Sendable static func account(_ error: any Error) -> HTTPError? {
        guard let error = error as? AccountError else { return nil }
        switch error {
        case .codeCooldown(let seconds):
            return HTTPError(.tooManyRequests, code: "code_cooldown",
                             message: "A code was sent recently; ask again in \(seconds) seconds.", retryAfter: seconds)
        case .codeLimitReached(let seconds):
            return HTTPError(.tooManyRequests, code: "rate_limited",
                             message: "Too many codes requested today; try again later.", retryAfter: seconds)
        case .invalidCode:
            return HTTPError(.unprocessableEntity, code: "invalid_code",
                             message: "The code is wrong, expired or already used. Ask for a new one.", field: "code")
        case .phoneTaken:
            return HTTPError(.conflict, code: "phone_taken", message: "This phone number already has an account.", field: "phone")
        case .invalidCredentials:
            return HTTPError(.unauthorized, code: "invalid_credentials", message: "Wrong phone number or password.")
        case .tooManyAttempts(let seconds):
            return HTTPError(.tooManyRequests, code: "too_many_attempts",
                             message: "Too many failed attempts; try again in \(seconds) seconds.", retryAfter: seconds)
        case .unauthorized:
            return .unauthorized("Sign in first: the token is missing, expired or revoked.")
        }
    }

    /// Input that breaks a documented limit.
    @Sendable static func validation(_ error: any Error) -> HTTPError? {
        guard let error = error as? ValidationError else { return nil }
        return .validation(error.message, field: error.field)
    }
}
