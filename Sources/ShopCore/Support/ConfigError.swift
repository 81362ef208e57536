import Foundation

/// A setting that could not be used, named by its key.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public let key: String
    public let reason: String

    public init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    public var description: String { "config \(key): \(reason)" }
}
