/// A statement and its values, built by string interpolation: every interpolated value becomes a
/// bound parameter, and only an explicit `SQL` fragment or `SQLIdentifier` is spliced into the
/// text. The engine renders the placeholders at the end (`?` for SQLite, `$1…` for PostgreSQL),
/// so text and values cannot drift apart.
///
///     let status: OrderStatus = .paid
///     var query: SQL = "SELECT id FROM orders WHERE status = \(status)"
///     if let user { query += " AND user_id = \(user)" }
///
/// A string *literal* written inside `\( )` is SQL text (it reads as an `SQL` fragment): bind a
/// fixed text by naming it (`let status = "on_sale"` then `\(status)`), or better, by its type.
public struct SQL: Sendable, Equatable, ExpressibleByStringInterpolation {
    enum Fragment: Sendable, Equatable {
        case text(String)
        case value(SQLValue)
    }

    private(set) var fragments: [Fragment]

    init(fragments: [Fragment]) {
        self.fragments = fragments
    }

    public init(stringLiteral text: String) {
        fragments = text.isEmpty ? [] : [.text(text)]
    }

    public init(stringInterpolation: StringInterpolation) {
        fragments = stringInterpolation.fragments
    }

    /// Text that is SQL by construction (a fixed clause chosen by code), never user input.
    public init(verbatim text: StaticString) {
        self.init(stringLiteral: text.description)
    }

    /// No text at all: the neutral element of `+` and of an optional clause.
    public static let empty = SQL(fragments: [])

    public var isEmpty: Bool { fragments.isEmpty }

    /// How many values `SQLConnection.query(chunking:)` binds in one statement at most.
    public static let listChunkSize = 10_000

    /// The interpolation: literal text stays text, values become parameters.
    public struct StringInterpolation: StringInterpolationProtocol {
        var fragments: [Fragment] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            fragments.reserveCapacity(2 * interpolationCount + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            if case .text(let previous)? = fragments.last {
                fragments[fragments.count - 1] = .text(previous + literal)
            } else {
                fragments.append(.text(literal))
            }
        }

        /// A value: bound as a parameter, never spliced.
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value) {
            fragments.append(.value(value.sqlValue))
        }

        /// An optional value: bound, NULL when nil (spelled out so Swift does not warn about an
        /// optional in an interpolation).
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            fragments.append(.value(value?.sqlValue ?? .null))
        }

        /// Another statement fragment, spliced with its own values.
        public mutating func appendInterpolation(_ sql: SQL) {
            for fragment in sql.fragments {
                switch fragment {
                case .text(let text): appendLiteral(text)
                case .value: fragments.append(fragment)
                }
            }
        }

        /// A table or column name chosen by code, spliced quoted.
        public mutating func appendInterpolation(_ identifier: SQLIdentifier) {
            appendLiteral(identifier.quoted)
        }

        /// `a, b, c` for `IN (...)`: one parameter per element.
        public mutating func appendInterpolation<Values: Sequence>(list values: Values) where Values.Element: SQLBindable {
            appendInterpolation(values.map { SQL("\($0)") }.joined(separator: ", "))
        }
    }

    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var joined = lhs
        joined += rhs
        return joined
    }

    public static func += (lhs: inout SQL, rhs: SQL) {
        var interpolation = StringInterpolation(fragments: lhs.fragments)
        interpolation.appendInterpolation(rhs)
        lhs.fragments = interpolation.fragments
    }

    /// The text with the engine's placeholder for each value (`n` counts from 1), and the values
    /// in order.
    public func render(placeholder: (Int) -> String) -> (text: String, values: [SQLValue]) {
        var text = ""
        var values: [SQLValue] = []
        for fragment in fragments {
            switch fragment {
            case .text(let part): text += part
            case .value(let value):
                values.append(value)
                text += placeholder(values.count)
            }
        }
        return (text, values)
    }
}

extension SQL.StringInterpolation {
    init(fragments: [SQL.Fragment]) {
        self.fragments = fragments
    }
}

extension SQL: CustomStringConvertible {
    /// The text with `?` placeholders (for logs and errors: values are not shown).
    public var description: String { render { _ in "?" }.text }
}

extension Sequence where Element == SQL {
    /// The fragments one after another with `separator` between them.
    public func joined(separator: SQL) -> SQL {
        var result = SQL.empty
        for (offset, fragment) in enumerated() {
            if offset > 0 { result += separator }
            result += fragment
        }
        return result
    }
}

/// A table or column name chosen by code (from a fixed set), never from input: it is spliced
/// into the text, double-quoted, and may hold only letters, digits and `_`.
public struct SQLIdentifier: Sendable, Equatable {
    public let name: String

    /// `name` is a name the code chose (a fixed table list, an enum's column); anything but
    /// letters, digits and `_` is a programmer error.
    public init(_ name: String) {
        precondition(!name.isEmpty && name.utf8.allSatisfy { $0 == 0x5F || (0x30...0x39).contains($0)
                         || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) },
                     "an SQL identifier is letters, digits and _")
        self.name = name
    }

    var quoted: String { "\"\(name)\"" }
}
