/// HTTP header fields, matched case-insensitively, in the order they were added.
public struct Headers: Sendable, Sequence {
    /// A struct, not a tuple: an array of tuples is destroyed element by element through the
    /// runtime's generic tuple witness, which cost more than building the fields.
    fileprivate struct Field: Sendable {
        let name: String
        let value: String
    }

    private var fields: [Field] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        for (name, value) in pairs { add(name, value) }
    }

    /// The first value of the field `name`, whatever its case.
    public subscript(_ name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of the field `name`, in the order received.
    public func values(of name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Makes room for `count` fields without growing as they are added.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Adds a field, keeping any existing one of the same name.
    public mutating func add(_ name: String, _ value: String) {
        reserveForFirstField()
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of that name with one value.
    public mutating func set(_ name: String, _ value: String) {
        if fields.contains(where: { Self.sameName($0.name, name) }) {
            fields.removeAll { Self.sameName($0.name, name) }
        }
        reserveForFirstField()
        fields.append(Field(name: name, value: value))
    }

    /// A message seldom has one field alone (a response gets its content type, then its request
    /// id...): room for four from the start spares regrowing the array field by field.
    private mutating func reserveForFirstField() {
        if fields.capacity == 0 { fields.reserveCapacity(4) }
    }

    /// ASCII case-insensitive comparison (header names are ASCII), without allocating.
    static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7a)
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(fields: fields.makeIterator())
    }

    /// Each field as `(name, value)`, in order.
    public struct Iterator: IteratorProtocol {
        fileprivate var fields: IndexingIterator<[Field]>

        public mutating func next() -> (name: String, value: String)? {
            fields.next().map { ($0.name, $0.value) }
        }
    }
}
