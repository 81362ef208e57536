extension Headers {
    /// Adds `names` to the `Vary` field, keeping the names already there (e.g. `Accept-Language`)
    /// and adding none twice; a `Vary: *` already says it all.
    public mutating func addVary(_ names: [String]) {
        let current = values(of: "Vary").flatMap { $0.split(separator: ",") }.map(\.trimmedBlanks).filter { !$0.isEmpty }
        guard !current.contains("*") else { return }
        var all = current
        for name in names where !all.contains(where: { Self.sameName($0, name) }) { all.append(name) }
        guard all.count > current.count else { return }
        set("Vary", all.joined(separator: ", "))
    }
}

private extension Substring {
    /// Without the spaces and tabs around it.
    var trimmedBlanks: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
