import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One setting of the settings file: its key, and how its text becomes the typed value at a key
/// path of `Root` and back. `Config` holds the shop's; the HTTP side declares its own
/// (`server.*`) the same way, read from the same file and environment (`SettingsSource`).
public struct Setting<Root>: Sendable {
    /// `section.key` in snake_case, as in `Config/shop.json`.
    public let key: String
    private let parse: @Sendable (String, inout Root) throws(Invalid) -> Void
    private let render: @Sendable (Root) -> String

    /// Why a text is not a value of this setting (the key is added by `read`).
    struct Invalid: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    init<Value>(_ key: String, _ path: WritableKeyPath<Root, Value> & Sendable,
                parse: @escaping @Sendable (String) throws(Invalid) -> Value,
                render: @escaping @Sendable (Value) -> String) {
        self.key = key
        self.parse = { (text, config) throws(Invalid) in config[keyPath: path] = try parse(text) }
        self.render = { config in render(config[keyPath: path]) }
    }

    /// `SHOP_<SECTION>_<KEY>`: the environment variable that overrides this setting.
    public var environmentVariable: String {
        "SHOP_" + key.replacingOccurrences(of: ".", with: "_").uppercased()
    }

    /// Sets this setting in `config` from `text`, or throws naming the key.
    public func read(_ text: String, into config: inout Root) throws {
        do {
            try parse(text, &config)
        } catch {
            throw ConfigError(key: key, reason: error.reason)
        }
    }

    /// This setting's value in `config` as text, the way the file and the environment spell it.
    public func text(in config: Root) -> String { render(config) }
}

extension Setting {
    /// Text, refused when empty unless `allowEmpty`.
    public static func string(_ key: String, _ path: WritableKeyPath<Root, String> & Sendable, allowEmpty: Bool = false) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            guard allowEmpty || !text.isEmpty else { throw Invalid("must not be empty") }
            return text
        }, render: { $0 })
    }

    /// One line of text shown to people (a name, a contact): trimmed, no control characters, at
    /// most `maxLength` characters; refused when empty unless `allowEmpty`.
    public static func line(_ key: String, _ path: WritableKeyPath<Root, String> & Sendable, maxLength: Int,
                            allowEmpty: Bool = false) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard allowEmpty || !value.isEmpty else { throw Invalid("must not be empty") }
            guard value.count <= maxLength else { throw Invalid("must be at most \(maxLength) characters, got \(value.count)") }
            guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw Invalid("must be one line without control characters")
            }
            return value
        }, render: { $0 })
    }

    /// Empty, `sqlite:PATH` or `postgresql://…`.
    public static func databaseURL(_ key: String, _ path: WritableKeyPath<Root, String> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            guard text.isEmpty || DatabaseLocation(url: text) != nil else {
                throw Invalid("must be sqlite:PATH or postgresql://user@host:port/database, got \"\(text.prefix(40))\"")
            }
            return text
        }, render: { $0 })
    }

    /// A whole number within `range`.
    public static func int(_ key: String, _ path: WritableKeyPath<Root, Int> & Sendable, _ range: ClosedRange<Int>) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw Invalid("must be a whole number, got \"\(text)\"")
            }
            guard range.contains(value) else {
                throw Invalid("must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
            }
            return value
        }, render: { "\($0)" })
    }

    /// One of an enum's raw values.
    public static func choice<Value: RawRepresentable<String> & Sendable>(_ key: String, _ path: WritableKeyPath<Root, Value> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            guard let value = Value(rawValue: text) else { throw Invalid("unknown value \"\(text)\"") }
            return value
        }, render: { $0.rawValue })
    }

    /// A time of day `HH:MM` (24-hour, `00:00` to `24:00`), kept as minutes after midnight.
    public static func timeOfDay(_ key: String, _ path: WritableKeyPath<Root, Int> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
                  let hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60, hour * 60 + minute <= 24 * 60 else {
                throw Invalid("must be a time of day written HH:MM (24-hour, e.g. 14:00), got \"\(text.prefix(20))\"")
            }
            return hour * 60 + minute
        }, render: { String(format: "%02d:%02d", $0 / 60, $0 % 60) })
    }

    /// A comma-separated list of days `YYYY-MM-DD`, possibly empty; sorted, each once.
    public static func days(_ key: String, _ path: WritableKeyPath<Root, [CalendarDay]> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            var days: Set<CalendarDay> = []
            for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
                guard let day = CalendarDay(entry) else { throw Invalid("\"\(entry.prefix(20))\" is not a day written YYYY-MM-DD") }
                days.insert(day)
            }
            return days.sorted()
        }, render: { $0.map(\.description).joined(separator: ",") })
    }

    /// A comma-separated list of days of the year `MM-DD`, possibly empty; sorted, each once.
    public static func monthDays(_ key: String, _ path: WritableKeyPath<Root, [MonthDay]> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            var days: Set<MonthDay> = []
            for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
                guard let day = MonthDay(entry) else { throw Invalid("\"\(entry.prefix(20))\" is not a day of the year written MM-DD") }
                days.insert(day)
            }
            return days.sorted()
        }, render: { $0.map(\.description).joined(separator: ",") })
    }

    /// An IANA time zone name (`Asia/Shanghai`, `UTC`) this machine knows.
    public static func timeZone(_ key: String, _ path: WritableKeyPath<Root, String> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            let name = text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.count <= 64, TimeZone(identifier: name) != nil else {
                throw Invalid("unknown time zone \"\(text.prefix(40))\": use an IANA name such as Asia/Shanghai or UTC")
            }
            return name
        }, render: { $0 })
    }

    /// A log level by name, in any case.
    public static func level(_ key: String, _ path: WritableKeyPath<Root, Logger.Level> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            let names: [String: Logger.Level] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
            guard let value = names[text.lowercased()] else { throw Invalid("must be debug, info, warning or error") }
            return value
        }, render: { "\($0)" })
    }

    /// A comma-separated list (`,` or `，`), each entry trimmed and lowercased, empty ones dropped.
    public static func words(_ key: String, _ path: WritableKeyPath<Root, [String]> & Sendable) -> Self {
        Self(key, path, parse: { text in
            text.split(whereSeparator: { $0 == "," || $0 == "，" })
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }
                .filter { !$0.isEmpty }
        }, render: { $0.joined(separator: ",") })
    }

    /// A comma-separated list of IPv4/IPv6 addresses or CIDR blocks (`10.0.0.0/8, ::1`), possibly
    /// empty, kept as written.
    public static func addresses(_ key: String, _ path: WritableKeyPath<Root, String> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
                let parts = entry.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                var v4 = in_addr()
                var v6 = in6_addr()
                let width = inet_pton(AF_INET, parts[0], &v4) == 1 ? 32 : inet_pton(AF_INET6, parts[0], &v6) == 1 ? 128 : 0
                let prefixIsValid = parts.count == 1
                    || (parts.count == 2 && !parts[1].isEmpty && parts[1].utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                        && (Int(parts[1]).map { $0 <= width } ?? false))
                guard width > 0, parts.count <= 2, prefixIsValid else {
                    throw Invalid("\"\(entry)\" is not an IP address or CIDR block")
                }
            }
            return text
        }, render: { $0 })
    }

    /// A comma-separated list of web origins, `http(s)://host[:port]` as browsers send them in
    /// `Origin` (lowercased, a default port and a trailing `/` dropped), or `*` for any; possibly empty.
    public static func origins(_ key: String, _ path: WritableKeyPath<Root, [String]> & Sendable) -> Self {
        Self(key, path, parse: { (text) throws(Invalid) in
            var origins: [String] = []
            for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
                guard let origin = Self.webOrigin(entry) else {
                    throw Invalid("\"\(entry.prefix(80))\" is not an origin like https://shop.example or http://127.0.0.1:3000, nor *")
                }
                if !origins.contains(origin) { origins.append(origin) }
            }
            return origins
        }, render: { $0.joined(separator: ",") })
    }

    /// `entry` as a browser writes it in `Origin`, or `*`; nil when it has a path, query,
    /// user, a scheme other than http(s), or a host that is not a DNS name or IP address.
    public static func webOrigin(_ entry: String) -> String? {
        if entry == "*" { return "*" }
        var text = entry.lowercased()
        if text.hasSuffix("/") { text.removeLast() }
        let scheme: String
        if text.hasPrefix("https://") { scheme = "https" } else if text.hasPrefix("http://") { scheme = "http" } else { return nil }
        let authority = text.dropFirst(scheme.count + 3)
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, String(authority[authority.index(after: authority.startIndex)..<close]), &v6) == 1 else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty, host.utf8.count <= 253, !host.hasPrefix("."), !host.hasPrefix("-"),
                  host.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2e || $0 == 0x2d })
            else { return nil }
        }
        guard let port else { return "\(scheme)://\(host)" }
        guard !port.isEmpty, port.utf8.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let number = Int(port), (1...65_535).contains(number) else { return nil }
        let isDefault = (scheme == "http" && number == 80) || (scheme == "https" && number == 443)
        return isDefault ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(number)"
    }
}
