/// Where the shop's data lives, read from `database.url`: the embedded SQLite file (the default)
/// or a PostgreSQL server shared by several nodes.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    /// A libpq connection string (`postgresql://user@host:port/db?sslmode=…`).
    case postgresql(url: String)

    /// nil for an empty text; a text that names neither engine is not a location.
    public init?(url: String) {
        if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else { return nil }
            self = .sqlite(path: path)
        } else if url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") {
            self = .postgresql(url: url)
        } else {
            return nil
        }
    }

    /// The location for logs: a PostgreSQL URL without its password.
    public var redacted: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgresql(let url):
            guard let at = url.firstIndex(of: "@"), let scheme = url.range(of: "://"),
                  let colon = url[scheme.upperBound..<at].firstIndex(of: ":") else { return url }
            return String(url[..<colon]) + ":***" + String(url[at...])
        }
    }
}
