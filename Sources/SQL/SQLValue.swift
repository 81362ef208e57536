import Foundation

/// One database value: what a statement binds and what a row holds, whatever the engine.
public enum SQLValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// A Swift value that binds itself to a statement parameter.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

/// A Swift value that decodes itself from a column, or throws when the column holds something else.
public protocol SQLDecodable {
    init(sqlValue: SQLValue) throws
}

/// Both ways: typed ids, money, dates and the shop's enums are stored and read as themselves.
public typealias SQLCodable = SQLBindable & SQLDecodable

/// Why a value could not become the Swift type asked for; `Row` adds the table and column.
public struct SQLValueMismatch: Error, Sendable {
    public let expected: String

    public init(expected: String) { self.expected = expected }
}

extension SQLValue: SQLBindable, SQLDecodable {
    public var sqlValue: SQLValue { self }
    public init(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLCodable {
    public var sqlValue: SQLValue { .integer(self) }

    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .integer(let v): self = v
        case .real(let v) where v == v.rounded() && abs(v) < 9.2e18: self = Int64(v)
        default: throw SQLValueMismatch(expected: "an integer")
        }
    }
}

extension Int: SQLCodable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init(sqlValue: SQLValue) throws { self = Int(try Int64(sqlValue: sqlValue)) }
}

extension Int32: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLCodable {
    public var sqlValue: SQLValue { .real(self) }

    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .real(let v): self = v
        case .integer(let v): self = Double(v)
        default: throw SQLValueMismatch(expected: "a number")
        }
    }
}

/// Stored as 0 or 1 (SQLite has no boolean; PostgreSQL's columns are declared to match).
extension Bool: SQLCodable {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }

    public init(sqlValue: SQLValue) throws {
        switch try Int64(sqlValue: sqlValue) {
        case 0: self = false
        case 1: self = true
        default: throw SQLValueMismatch(expected: "0 or 1")
        }
    }
}

extension String: SQLCodable {
    public var sqlValue: SQLValue { .text(self) }

    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .text(let v): self = v
        default: throw SQLValueMismatch(expected: "text")
        }
    }
}

extension Substring: SQLBindable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Array: SQLBindable where Element == UInt8 {
    public var sqlValue: SQLValue { .blob(self) }
}

extension Array: SQLDecodable where Element == UInt8 {
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .blob(let v): self = v
        default: throw SQLValueMismatch(expected: "a blob")
        }
    }
}

extension Data: SQLBindable {
    public var sqlValue: SQLValue { .blob([UInt8](self)) }
}

/// Whole seconds since 1970 (UTC), the shop's one way of storing a moment.
extension Date: SQLCodable {
    public var sqlValue: SQLValue { .integer(Int64(timeIntervalSince1970.rounded(.down))) }
    public init(sqlValue: SQLValue) throws { self.init(timeIntervalSince1970: TimeInterval(try Int64(sqlValue: sqlValue))) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension Optional: SQLDecodable where Wrapped: SQLDecodable {
    public init(sqlValue: SQLValue) throws {
        if case .null = sqlValue { self = nil } else { self = try Wrapped(sqlValue: sqlValue) }
    }
}

/// An enum backed by text or integers stores its raw value; an unknown raw value is an error,
/// never a plausible default.
extension SQLBindable where Self: RawRepresentable, RawValue: SQLBindable {
    public var sqlValue: SQLValue { rawValue.sqlValue }
}

extension SQLDecodable where Self: RawRepresentable, RawValue: SQLDecodable {
    public init(sqlValue: SQLValue) throws {
        guard let value = Self(rawValue: try RawValue(sqlValue: sqlValue)) else {
            throw SQLValueMismatch(expected: "a \(Self.self)")
        }
        self = value
    }
}
