/// Why an accounts request was refused.
public enum AccountError: Error, Equatable, Sendable {
    /// Another code for this phone and purpose was sent less than the cooldown ago.
    case codeCooldown(retryAfter: Int)
    /// The daily cap of codes for this phone or this client address is reached.
    case codeLimitReached(retryAfter: Int)
    /// Wrong, expired, used, replaced or exhausted code: all look the same to the client.
    case invalidCode
    case phoneTaken
    /// Unknown phone or wrong password: one answer for both.
    case invalidCredentials
    /// The right password, but staff have banned the account (`POST /admin/users/{id}/ban`).
    case accountBanned
    /// Too many failed logins for this phone or address in the window.
    case tooManyAttempts(retryAfter: Int)
    /// Missing, unknown, expired or revoked token.
    case unauthorized
}
