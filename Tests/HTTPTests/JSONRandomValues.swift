import Foundation
@testable import HTTP

// Seeded random input for the JSON property tests: strings full of what JSON makes hard, and
// DTO-like values shaped as the API's are (snake_case keys with acronyms, explicit nulls, flat
// objects, nested arrays and dictionaries, extreme integers, dates).

/// SplitMix64: small, fast and the same on every platform, so a failing case is reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }

    /// Text weighted toward JSON's hard cases: controls, quotes, backslashes, slashes, the scalars
    /// either side of the surrogate range, non-BMP emoji (with ZWJ and variation selectors), CJK,
    /// combining marks, U+2028/2029, DEL.
    mutating func text(maxLength: Int = 24) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &self) {
            let value: UInt32
            switch Int.random(in: 0..<12, using: &self) {
            case 0, 1, 2: value = UInt32.random(in: 0x20...0x7E, using: &self)
            case 3: value = UInt32.random(in: 0x00...0x1F, using: &self)
            case 4: value = [0x22, 0x5C, 0x2F, 0x7F, 0x08, 0x0C, 0x0A, 0x0D, 0x09].randomElement(using: &self)!
            case 5: value = [0xD7FF, 0xE000, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF, 0xFEFF].randomElement(using: &self)!
            case 6: value = UInt32.random(in: 0x4E00...0x9FFF, using: &self)
            case 7: value = UInt32.random(in: 0x1F300...0x1FAFF, using: &self)
            case 8: value = [0x200D, 0xFE0F, 0x2028, 0x2029, 0x0085, 0x00A0].randomElement(using: &self)!
            case 9: value = UInt32.random(in: 0x0300...0x036F, using: &self)
            case 10: value = UInt32.random(in: 0x00C0...0x04FF, using: &self)
            default: value = UInt32.random(in: 0x10000...0x10FFFF, using: &self)
            }
            // Every value drawn is a scalar (the surrogates themselves are never drawn).
            scalars.append(Unicode.Scalar(value)!)
        }
        return String(scalars)
    }

    /// A Swift-style member name: camelCase words, acronyms (`ID`, `URLs`), digits, underscores,
    /// now and then a non-ASCII letter or a character that needs escaping.
    mutating func memberName() -> String {
        let words = ["sku", "ID", "IDs", "url", "URL", "URLs", "URLString", "md5", "MD5", "price", "Cents", "total",
                     "a", "B", "is", "Default", "x", "2", "v2", "_", "É", "école", "ß", "Σίγμα", "İ", "html", "HTTPS",
                     "s", "S", "of", "sha256", "Hex"]
        var name = ""
        for index in 0..<Int.random(in: 1...4, using: &self) {
            var word = words.randomElement(using: &self)!
            if index > 0 && chance(0.6) { word = word.prefix(1).uppercased() + word.dropFirst() }
            name += word
        }
        if chance(0.03) { name += ["\"", "\\", "\n", "\u{1}", "/"].randomElement(using: &self)! }
        return name
    }

    /// Whole seconds from 1601 to 9999 (dates the API writes read back exactly: no fraction).
    mutating func wholeSecondDate() -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: -11_644_473_600..<253_402_300_800, using: &self)))
    }

    /// Any date: fractions, before 1601 and after 9999 (Foundation formats those), round numbers.
    mutating func anyDate() -> Date {
        switch Int.random(in: 0..<4, using: &self) {
        case 0: return wholeSecondDate()
        case 1: return Date(timeIntervalSince1970: Double.random(in: -1e11...1e11, using: &self))
        case 2: return Date(timeIntervalSince1970: Double.random(in: -1e14...1e14, using: &self))
        default: return Date(timeIntervalSince1970: Double(Int.random(in: -3...3, using: &self)) + [0, 0.5, 0.999_9, -0.000_1].randomElement(using: &self)!)
        }
    }

    /// Finite doubles of every shape: integers, short decimals, random bit patterns, subnormals.
    mutating func finiteDouble() -> Double {
        switch Int.random(in: 0..<5, using: &self) {
        case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &self))
        case 1: return Double(Int.random(in: -99_999...99_999, using: &self)) / 100
        case 2: return [0, -0.0, 1e20, 1e21, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e15, 1e16].randomElement(using: &self)!
        default:
            while true {
                let value = Double(bitPattern: next())
                if value.isFinite { return value }
            }
        }
    }

    mutating func extremeInt64() -> Int64 {
        chance(0.3) ? [Int64.min, .max, 0, -1, 1].randomElement(using: &self)! : Int64.random(in: .min ... .max, using: &self)
    }
}

/// The API's `ExplicitNull` (ShopAPI), decodable too: always written, `null` when absent.
@propertyWrapper
struct AlwaysWritten<Value: Codable & Equatable>: Codable, Equatable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// The API's `Flat` (ShopAPI): two values as one object.
struct FlatPair<Shared: Codable & Equatable, Own: Codable & Equatable>: Codable, Equatable {
    let shared: Shared
    let own: Own

    init(_ shared: Shared, _ own: Own) {
        self.shared = shared
        self.own = own
    }

    init(from decoder: any Decoder) throws {
        shared = try Shared(from: decoder)
        own = try Own(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try shared.encode(to: encoder)
        try own.encode(to: encoder)
    }
}

/// A typed id, as ShopCore's `ID<Entity>`: a single integer.
struct RandomID: Codable, Equatable {
    let rawValue: Int64

    init(_ rawValue: Int64) { self.rawValue = rawValue }
    init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int64.self) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Shaped like a product summary or a cart line.
struct RandomSummary: Codable, Equatable {
    var id: RandomID
    var title: String
    var coverURL: String
    var priceCents: Int64
    var inStock: Bool
    var createdAt: Date
    var note: String?
    @AlwaysWritten var paidAt: Date?
    @AlwaysWritten var replyTo: RandomID?

    init(_ random: inout SeededGenerator) {
        id = RandomID(random.extremeInt64())
        title = random.text()
        coverURL = "https://img.example.com/" + random.text(maxLength: 8)
        priceCents = random.extremeInt64()
        inStock = random.chance(0.5)
        createdAt = random.wholeSecondDate()
        note = random.chance(0.5) ? random.text() : nil
        paidAt = random.chance(0.5) ? random.wholeSecondDate() : nil
        replyTo = random.chance(0.5) ? RandomID(random.extremeInt64()) : nil
    }
}

/// What a detail page has beyond its summary: arrays, dictionaries, numbers of every width.
struct RandomDetail: Codable, Equatable {
    var imageURLs: [String]
    var orderIDs: [Int64]
    var attributes: [String: String]
    var counts: [String: Int]
    var ratio: Double
    var ratios: [Double]
    var matrix: [[Int?]]
    var passwordMD5: String?
    var avatarURLString: String
    var tiny: Int8
    var huge: UInt64
    var userIDsByPhone: [String: [Int]]

    init(_ random: inout SeededGenerator) {
        imageURLs = (0..<Int.random(in: 0...4, using: &random)).map { _ in random.text(maxLength: 10) }
        orderIDs = (0..<Int.random(in: 0...4, using: &random)).map { _ in random.extremeInt64() }
        attributes = Dictionary((0..<Int.random(in: 0...5, using: &random)).map { _ in (random.text(maxLength: 6), random.text()) },
                                uniquingKeysWith: { _, last in last })
        counts = Dictionary((0..<Int.random(in: 0...4, using: &random)).map { _ in (random.memberName(), Int.random(in: .min ... .max, using: &random)) },
                            uniquingKeysWith: { _, last in last })
        ratio = random.finiteDouble()
        ratios = (0..<Int.random(in: 0...3, using: &random)).map { _ in random.finiteDouble() }
        matrix = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            (0..<Int.random(in: 0...3, using: &random)).map { _ in random.chance(0.3) ? nil : Int.random(in: -999...999, using: &random) }
        }
        passwordMD5 = random.chance(0.5) ? random.text(maxLength: 32) : nil
        avatarURLString = random.text()
        tiny = Int8.random(in: .min ... .max, using: &random)
        huge = random.chance(0.3) ? .max : UInt64.random(in: 0 ... .max, using: &random)
        userIDsByPhone = random.chance(0.5) ? [random.text(maxLength: 11): [Int.min, Int.max]] : [:]
    }
}

/// A tree of flat summary+detail objects, as nested as a category tree or an order.
struct RandomNode: Codable, Equatable {
    var page: FlatPair<RandomSummary, RandomDetail>
    @AlwaysWritten var parentID: RandomID?
    var children: [RandomNode]
    var shapes: [RandomShape]

    init(_ random: inout SeededGenerator, depth: Int = 0) {
        page = FlatPair(RandomSummary(&random), RandomDetail(&random))
        parentID = random.chance(0.5) ? RandomID(random.extremeInt64()) : nil
        children = depth >= 2 ? [] : (0..<Int.random(in: 0...2, using: &random)).map { _ in RandomNode(&random, depth: depth + 1) }
        shapes = (0..<Int.random(in: 0...2, using: &random)).map { _ in RandomShape(&random) }
    }
}

/// An enum with associated values: synthesized `Codable` writes it through nested containers.
enum RandomShape: Codable, Equatable {
    case circle(radius: Int)
    case labelled(text: String, sizeInPoints: Double)
    case empty

    init(_ random: inout SeededGenerator) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: self = .circle(radius: Int.random(in: .min ... .max, using: &random))
        case 1: self = .labelled(text: random.text(), sizeInPoints: random.finiteDouble())
        default: self = .empty
        }
    }
}

/// Any JSON value, keys chosen freely: encoded as ShopCore's `JSONValue` is.
indirect enum RandomJSON: Encodable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null
    case array([RandomJSON])
    case object([String: RandomJSON])
    /// Members under Swift-style names, which the encoder converts to snake_case.
    case members([(String, RandomJSON)])

    init(_ random: inout SeededGenerator, depth: Int = 0) {
        let leaf = depth >= 3 || random.chance(0.4)
        switch Int.random(in: 0..<(leaf ? 5 : 8), using: &random) {
        case 0: self = .string(random.text())
        case 1: self = .integer(random.extremeInt64())
        case 2: self = .number(random.finiteDouble())
        case 3: self = .bool(random.chance(0.5))
        case 4: self = .null
        case 5: self = .array((0..<Int.random(in: 0...4, using: &random)).map { _ in RandomJSON(&random, depth: depth + 1) })
        case 6:
            self = .object(Dictionary((0..<Int.random(in: 0...4, using: &random)).map { _ in (random.text(maxLength: 8), RandomJSON(&random, depth: depth + 1)) },
                                      uniquingKeysWith: { _, last in last }))
        default:
            self = .members((0..<Int.random(in: 0...5, using: &random)).map { _ in (random.memberName(), RandomJSON(&random, depth: depth + 1)) })
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .members(let members):
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (name, value) in members { try container.encode(value, forKey: JSONCodingKey(stringValue: name)) }
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .null: try container.encodeNil()
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            case .members: break
            }
        }
    }
}
