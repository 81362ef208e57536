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
