import HTTP
import Localization
import ShopCore

extension ErrorMapping {
    /// Accounts: codes, credentials and tokens.
    @Sendable static func account(_ error: any Error) -> HTTPError? {
        guard let error = error as? AccountError else { return nil }
        switch error {
        case .codeCooldown(let seconds):
            return HTTPError(.codeCooldown, ["seconds": .verbatim(String(seconds))], retryAfter: seconds)
        case .codeLimitReached(let seconds):
            return HTTPError(.codeLimitReached, retryAfter: seconds)
        case .invalidCode:
            return HTTPError(.invalidCode, field: "code")
        case .phoneTaken:
            return HTTPError(.phoneTaken, field: "phone")
        case .invalidCredentials:
            return HTTPError(.invalidCredentials)
        case .accountBanned:
            return HTTPError(BuyerBanMessage.accountBanned)
        case .tooManyAttempts(let seconds):
            return HTTPError(.tooManyAttempts, ["seconds": .verbatim(String(seconds))], retryAfter: seconds)
        case .unauthorized:
            return HTTPError(.unauthorized)
        }
    }

    /// Input that breaks a documented limit, worded by the rule it breaks.
    @Sendable static func validation(_ error: any Error) -> HTTPError? {
        guard let error = error as? ValidationError else { return nil }
        return HTTPError(error)
    }
}
