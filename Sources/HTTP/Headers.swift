/// HTTP header fields, matched case-insensitively, in the order they were added.
public struct Headers: Sendable, Sequence {
    private var fields: [(name: String, value: String)] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        for (name, value) in pairs { add(name, value) }
    }

    /// The first value of the field `name`, whatever its case.
    public subscript(_ name: String) -> String? {
        let lower = name.lowercased()
        return fields.first { $0.name.lowercased() == lower }?.value
    }

    /// Adds a field, keeping any existing one of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field of that name with one value.
    public mutating func set(_ name: String, _ value: String) {
        let lower = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lower }
        fields.append((name, value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}
