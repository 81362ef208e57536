/// Why a favourite was refused.
public enum FavoriteError: Error, Equatable, Sendable {
    /// The user already keeps `max` products (or articles): remove one first.
    case limitReached(max: Int)
}
