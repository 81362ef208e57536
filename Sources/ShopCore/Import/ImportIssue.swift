/// One problem in an import file, reported as `line N: <column>: <reason>`.
public struct ImportIssue: Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: String
    public let reason: String

    public init(line: Int, column: String, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { "line \(line): \(column): \(reason)" }
}

/// What an import did (or, in a dry run, would do).
public struct ImportSummary: Sendable, Equatable {
    public struct Counts: Sendable, Equatable {
        public var created = 0
        public var updated = 0
        public var unchanged = 0
        public var invalid = 0
    }

    public var products = Counts()
    public var skus = Counts()
}
