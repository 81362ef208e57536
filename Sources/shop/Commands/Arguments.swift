/// Parsed command-line words: `--name value` options, `--flag` switches and positionals.
struct Arguments {
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    private(set) var positionals: [String] = []
    private var consumed: Set<String> = []

    /// Parses `words`; the names in `valued` take a value, every other `--word` is a switch.
    init(_ words: [String], valued: Set<String>) throws {
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--") && word.count > 2 {
                var name = String(word.dropFirst(2))
                var value: String?
                if let equals = name.firstIndex(of: "=") {
                    value = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if valued.contains(name) || name == "config" {
                    if value == nil {
                        index += 1
                        guard index < words.count else { throw UsageError(description: say(zh: "--\(name) 需要一个值", en: "--\(name) needs a value")) }
                        value = words[index]
                    }
                    options[name] = value
                } else {
                    guard value == nil else { throw UsageError(description: say(zh: "--\(name) 不接受值", en: "--\(name) takes no value")) }
                    flags.insert(name)
                }
            } else {
                positionals.append(word)
            }
            index += 1
        }
    }

    func option(_ name: String) -> String? { options[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Rejects options and switches the command does not know, and extra positionals.
    func allow(options allowedOptions: Set<String> = [], flags allowedFlags: Set<String> = [], positionals count: Int = 0) throws {
        if let unknown = options.keys.first(where: { !allowedOptions.contains($0) }) ?? flags.first(where: { !allowedFlags.contains($0) }) {
            throw UsageError(description: say(zh: "未知选项 --\(unknown)", en: "unknown option --\(unknown)"))
        }
        if positionals.count != count {
            throw UsageError(description: count == 0
                ? say(zh: "多余的参数“\(positionals[0])”", en: "unexpected argument '\(positionals[0])'")
                : say(zh: "需要 \(count) 个参数，实际 \(positionals.count) 个", en: "expected \(count) argument\(count == 1 ? "" : "s"), got \(positionals.count)"))
        }
    }
}
