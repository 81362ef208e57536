import Foundation
import SQL

/// The repository the tests live in, found by walking up from `#filePath` to `Package.swift`.
public enum Repository {
    public static func root(from file: String = #filePath) -> URL {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(file)")
    }

    /// The folder of one engine's migration files.
    public static func migrations(_ dialect: SQLDialect) -> String {
        root().appendingPathComponent("Migrations/\(dialect.rawValue)").path
    }
}

/// A fixture that could not set up what a test asked for.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
