import HTTP
import SQL

extension ErrorMapping {
    /// The `code` of a request that could not reach the database.
    static let databaseUnavailable = APIMessage.databaseUnreachable.code

    /// The database cannot be reached (PostgreSQL down or restarting, the connection refused or
    /// cut) or every pooled connection stayed busy past the pool's wait: 503 with `Retry-After`,
    /// so a client or load balancer retries instead of seeing a 500 or a request that hangs.
    @Sendable static func database(_ error: any Error) -> HTTPError? {
        guard let error = error as? any SQLError else { return nil }
        switch error.kind {
        case .connectionLost:
            return HTTPError(.databaseUnreachable, retryAfter: 1)
        case .poolExhausted:
            return HTTPError(.databaseBusy, retryAfter: 1)
        default:
            return nil
        }
    }
}
