import Foundation

/// A leveled logger writing one line per event: `time LEVEL message key=value ...` (`text`), or one
/// JSON object per line, `{"time", "level", "message", then each field}` (`json`).
public struct Logger: Sendable {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        var label: String {
            switch self {
            case .debug: "DEBUG"
            case .info: "INFO"
            case .warning: "WARN"
            case .error: "ERROR"
            }
        }

        /// The name `app.log_level` uses, which the JSON lines carry.
        var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// How each event is written (`app.log_format`).
    public enum Format: String, Sendable, CaseIterable {
        /// `time LEVEL message key=value ...`, values quoted when needed.
        case text
        /// One JSON object per line: `time`, `level`, `message`, then the fields in order (a field
        /// named like one of those three gets a trailing `_`).
        case json
    }

    public let minimumLevel: Level
    public let format: Format
    private let sink: @Sendable (String) -> Void

    /// A logger writing to `sink` (stderr by default).
    public init(minimumLevel: Level = .info, format: Format = .text,
                sink: @escaping @Sendable (String) -> Void = Logger.standardError) {
        self.minimumLevel = minimumLevel
        self.format = format
        self.sink = sink
    }

    public func log(_ level: Level, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        guard level >= minimumLevel else { return }
        switch format {
        case .text:
            var line = "\(Self.timestamp()) \(level.label) \(message)"
            for (key, value) in fields {
                line += " \(key)=\(Self.quoted(value))"
            }
            sink(line)
        case .json:
            var line = "{\"time\":\(Self.jsonString(Self.timestamp())),\"level\":\(Self.jsonString(level.name))"
            line += ",\"message\":\(Self.jsonString(message))"
            for (key, value) in fields {
                let name = ["time", "level", "message"].contains(key) ? key + "_" : key
                line += ",\(Self.jsonString(name)):\(Self.jsonString(value))"
            }
            sink(line + "}")
        }
    }

    public func debug(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.debug, message, fields) }
    public func info(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.info, message, fields) }
    public func warning(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.warning, message, fields) }
    public func error(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.error, message, fields) }

    /// Drops every line (for tests that do not look at the log).
    public static let silent = Logger(minimumLevel: .error) { _ in }

    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func timestamp() -> String {
        Date().formatted(.iso8601)
    }

    /// A JSON string literal; control characters are escaped, so the object stays on one line.
    static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Values with spaces, quotes or control characters are quoted (as JSON strings are) so one
    /// event stays one line.
    static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy {
            $0.value > 0x20 && $0 != "\"" && $0 != "\\" && $0.value != 0x7f
        }
        return plain ? value : jsonString(value)
    }
}
