import Foundation

/// The settings file and the environment, as text by key: what every table of settings reads
/// (`Config.settings` here, the HTTP server's `server.*` in ShopAPI), so one file and one naming
/// (`SHOP_<SECTION>_<KEY>`) serve both.
public struct SettingsSource: Sendable {
    /// The file's settings, `section.key` → text.
    let file: [String: String]
    let environment: [String: String]

    /// The JSON file at `path` (if given; it must exist and be an object of sections) and `environment`.
    public init(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let path {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigError(key: "--config", reason: "cannot read \(path)")
            }
            file = try Self.flatten(data, source: path)
        } else {
            file = [:]
        }
        self.environment = environment
    }

    /// Reads each of `settings` into `root`: its `SHOP_<SECTION>_<KEY>` variable, else the file;
    /// a setting in neither keeps the value `root` holds (the default).
    public func read<Root>(_ settings: [Setting<Root>], into root: inout Root) throws {
        for setting in settings {
            if let text = environment[setting.environmentVariable] ?? file[setting.key] { try setting.read(text, into: &root) }
        }
    }

    /// Throws naming a key of the file that is not among `known`; with `sections`, only keys of
    /// those sections are looked at (the others are their own table's to check).
    public func refuseUnknownKeys(_ known: [String], inSections sections: Set<String>? = nil) throws {
        let known = Set(known)
        for key in file.keys.sorted() where !known.contains(key) {
            if let sections, let section = key.split(separator: ".").first, !sections.contains(String(section)) { continue }
            throw ConfigError(key: key, reason: "unknown setting")
        }
    }

    /// `{"server": {"port": 8080}}` → `["server.port": "8080"]`.
    static func flatten(_ data: Data, source: String) throws -> [String: String] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConfigError(key: source, reason: "not a JSON object")
        }
        var values: [String: String] = [:]
        for (section, body) in root {
            guard let entries = body as? [String: Any] else {
                throw ConfigError(key: section, reason: "must be an object of settings")
            }
            for (name, value) in entries {
                let key = "\(section).\(name)"
                switch value {
                case let string as String: values[key] = string
                case let number as NSNumber:
                    values[key] = number.stringValue
                case is NSNull: continue
                case let list as [String]:
                    // A list setting (`"cors_origins": ["https://a.example", "https://b.example"]`)
                    // reads as the comma-separated text its environment variable would hold.
                    values[key] = list.joined(separator: ",")
                default: throw ConfigError(key: key, reason: "must be a string, number or boolean")
                }
            }
        }
        return values
    }
}

extension Config {
    /// The shop's settings from `source`; keys of sections `Config` has none of (the HTTP
    /// server's `server.*`) are left to their own table.
    public init(_ source: SettingsSource) throws {
        try source.refuseUnknownKeys(Config.keys, inSections: Config.sections)
        self.init()
        try source.read(Config.settings, into: &self)
    }

    /// Defaults, then the JSON file at `path` (if given), then `SHOP_<SECTION>_<KEY>` variables.
    public static func load(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Config {
        try Config(SettingsSource(path: path, environment: environment))
    }

    /// The sections of the file `Config` reads (`database`, `auth`, …).
    static let sections = Set(keys.compactMap { $0.split(separator: ".").first.map(String.init) })
}
