/// The cost fields of a PHC-format Argon2id string: "$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>".
struct Argon2Encoded: Equatable {
    let version: UInt32
    let parameters: PasswordHasher.Parameters

    /// Parses the header of an Argon2id encoded hash; nil for other algorithms or malformed text.
    init?(_ encoded: String) {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id",
              !fields[4].isEmpty, !fields[5].isEmpty,
              let version = Self.value(of: "v", in: fields[2])
        else { return nil }
        let costs = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard costs.count == 3,
              let memory = Self.value(of: "m", in: costs[0]),
              let iterations = Self.value(of: "t", in: costs[1]),
              let parallelism = Self.value(of: "p", in: costs[2])
        else { return nil }
        self.version = version
        self.parameters = .init(memoryKiB: memory, iterations: iterations, parallelism: parallelism)
    }

    /// The number in a "key=digits" field, if the field has exactly that shape.
    private static func value(of key: String, in field: Substring) -> UInt32? {
        let prefix = key + "="
        guard field.hasPrefix(prefix) else { return nil }
        let digits = field.dropFirst(prefix.count)
        guard digits.isASCIIDigits else { return nil }
        return UInt32(digits)
    }
}
