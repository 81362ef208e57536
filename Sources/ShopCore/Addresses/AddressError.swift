/// Why an address request was refused.
public enum AddressError: Error, Equatable, Sendable {
    /// No such address in this user's book.
    case notFound
    case limitExceeded(max: Int)
}
