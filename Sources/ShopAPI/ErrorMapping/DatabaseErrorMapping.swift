import HTTP
import SQL

extension ErrorMapping {
    /// The `code` of a request that could not reach the database.
    static let databaseUnavailable = "database_unavailable"

    /// The database cannot be reached (PostgreSQL down or restarting, the connection refused or
    /// cut): 503 with `Retry-After`, so a client or load balancer retries instead of seeing a 500.
    @Sendable static func database(_ error: any Error) -> HTTPError? {
        guard let error = error as? any SQLError, error.kind == .connectionLost else { return nil }
        return HTTPError(.serviceUnavailable, code: databaseUnavailable,
                         message: "The database cannot be reached right now. Try again shortly.", retryAfter: 1)
    }
}
