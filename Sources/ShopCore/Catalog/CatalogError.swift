import Foundation

/// Why a catalogue request failed.
public enum CatalogError: Error, Equatable, Sendable {
    /// Unknown or off-sale product.
    case productNotFound
    case categoryNotFound
    /// This client address searched `search.max_per_minute_per_ip` times this minute.
    case tooManySearches(retryAfter: Int)
}
