import Foundation

/// The Mandarin readings of Chinese characters, as `Pinyin/mandarin.tsv` ships them (generated from
/// Unicode's Unihan data by `scripts/pinyin_from_unihan.py`, embedded in the binary): tone marks
/// removed, `ü` written `v`, every reading of a polyphonic character (行: xing, hang, heng).
public struct PinyinTable: Sendable {
    /// Character → its readings, the customary one first.
    let readings: [Unicode.Scalar: [String]]
    /// The `# key: value` lines of the file's header (source, licence, rows sha256, …).
    public let header: [String: String]

    /// The table built into the binary (read once, on first use).
    public static let shipped: PinyinTable = PinyinTable(parsing: shippedData)

    /// `Pinyin/mandarin.tsv` as built into the binary.
    public static var shippedData: String { EmbeddedFiles.files["Pinyin/mandarin.tsv"] ?? "" }

    /// Reads `character<TAB>reading reading…` lines; `#` lines are the header.
    init(parsing text: String) {
        var readings: [Unicode.Scalar: [String]] = [:]
        var header: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") {
                let body = line.dropFirst().drop(while: { $0 == " " })
                if let colon = body.firstIndex(of: ":") {
                    header[String(body[..<colon])] = String(body[body.index(after: colon)...].drop(while: { $0 == " " }))
                }
                continue
            }
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let scalar = parts[0].unicodeScalars.first, parts[0].unicodeScalars.count == 1 else { continue }
            readings[scalar] = parts[1].split(separator: " ").map(String.init)
        }
        self.readings = readings
        self.header = header
    }

    /// How many characters the table reads.
    public var count: Int { readings.count }

    /// The readings of `character` (empty when the table has none).
    public func readings(of character: Unicode.Scalar) -> [String] {
        readings[character] ?? []
    }

    /// The longest pinyin spelling compared (64 characters hold any query's pinyin).
    static let maxSpelling = 64

    /// A query as pinyin is compared: lower case, without tone marks, spaces, apostrophes or hyphens,
    /// `ü` (or `u:`) written `v`; nil unless what is left is only the letters a–z (a query with
    /// anything else, Chinese characters or digits, is not a pinyin spelling).
    public static func spelling(of query: String) -> String? {
        var out: [UInt8] = []
        let scalars = Array(query.decomposedStringWithCanonicalMapping.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar.value {
            case 0x41...0x5A: out.append(UInt8(scalar.value) + 0x20)
            case 0x61...0x7A: out.append(UInt8(scalar.value))
            case 0x20, 0x27, 0x2D, 0x2019, 0x3000: continue
            case 0x3A where out.last == UInt8(ascii: "u"): out[out.count - 1] = UInt8(ascii: "v")
            case 0x308 where out.last == UInt8(ascii: "u"): out[out.count - 1] = UInt8(ascii: "v")
            case 0x300...0x304, 0x30C: guard !out.isEmpty else { return nil }
            default: return nil
            }
            if out.count > maxSpelling { return nil }
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    /// Up to `limit` spellings of `term` (its readings joined, each combination of a polyphonic
    /// character's readings) and as many spellings of initials (each reading's first letter); nil
    /// when a character of `term` has no reading.
    func spellings(of term: String, limit: Int = 8) -> (full: [String], initials: [String])? {
        var full = [""]
        var initials = [""]
        for scalar in term.unicodeScalars {
            guard let options = readings[scalar], !options.isEmpty else { return nil }
            // Past the limit, only each further character's customary reading.
            let chosen = full.count * options.count > limit ? [options[0]] : options
            full = full.flatMap { prefix in chosen.map { prefix + $0 } }
            var letters: [String] = []
            for option in chosen {
                let letter = String(option.prefix(1))
                if !letters.contains(letter) { letters.append(letter) }
            }
            initials = initials.flatMap { prefix in letters.map { prefix + $0 } }
        }
        return (full, initials)
    }
}
