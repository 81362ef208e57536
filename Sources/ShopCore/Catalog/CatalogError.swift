import Foundation

/// Why a catalogue request failed.
public enum CatalogError: Error, Equatable, Sendable {
    /// Unknown or off-sale product.
    case productNotFound
    case categoryNotFound
}
