import Foundation

extension Config {
    /// Defaults, then the JSON file at `path` (if given), then `SHOP_<SECTION>_<KEY>` variables.
    public static func load(path: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Config {
        var values: [String: String] = [:]
        if let path {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigError(key: "--config", reason: "cannot read \(path)")
            }
            values = try flatten(data, source: path)
        }
        for setting in Config.settings {
            if let value = environment[setting.environmentVariable] { values[setting.key] = value }
        }
        for key in values.keys where !Config.keys.contains(key) {
            throw ConfigError(key: key, reason: "unknown setting")
        }
        var config = Config()
        for setting in Config.settings {
            if let text = values[setting.key] { try setting.read(text, into: &config) }
        }
        if config.server.threads == 0 { config.server.threads = 2 * ProcessInfo.processInfo.activeProcessorCount }
        return config
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
