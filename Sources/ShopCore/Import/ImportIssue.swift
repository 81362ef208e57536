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

/// Why an import wrote nothing.
public enum ImportError: Error, Equatable, CustomStringConvertible {
    case fileTooLarge(bytes: Int, limit: Int)
    case unreadable(String)
    case unsupportedFormat(String)
    /// Invalid rows and no `--skip-invalid`: nothing was written.
    case invalidRows([ImportIssue])

    public var description: String {
        switch self {
        case .fileTooLarge(let bytes, let limit):
            return "the file is \(bytes) bytes, over the limit of \(limit) bytes (catalog.import_max_bytes); split it"
        case .unreadable(let reason): return "cannot read the file: \(reason)"
        case .unsupportedFormat(let name): return "\(name): only .csv and .jsonl files can be imported"
        case .invalidRows(let issues):
            let rows = Set(issues.map(\.line)).count
            return "\(rows) invalid row\(rows == 1 ? "" : "s"); nothing was imported (use --skip-invalid to import the valid rows)"
        }
    }
}
