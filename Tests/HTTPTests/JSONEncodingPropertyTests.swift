import Foundation
@testable import HTTP
import Testing

/// `JSON.encode` (the byte encoder behind every response) against Foundation's `JSONEncoder`
/// with the same conventions, on thousands of seeded random values: the bytes are the same, they
/// are JSON text (UTF-8, every control character escaped), and `JSON.decoder()` reads the values back.
@Suite("JSON.encode writes Foundation's bytes")
struct JSONEncodingPropertyTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Both encoders' bytes, after checking ours is well-formed on its own terms.
    private func encodings(_ value: some Encodable, _ label: @autoclosure () -> String) throws -> (ours: [UInt8], foundation: [UInt8]) {
        let ours = try JSON.encode(value)
        let foundation = Array(try JSON.encoder().encode(value))
        try #require(String(validating: ours, as: UTF8.self) != nil, "\(label()): not UTF-8")
        try #require(!ours.contains { $0 < 0x20 }, "\(label()): a raw control character in \(text(ours))")
        try #require(ours == foundation, "\(label()):\n ours:       \(text(ours))\n Foundation: \(text(foundation))")
        return (ours, foundation)
    }

    @Test func controlCharactersAreEscapedAndEverythingElsePassesThroughAsUTF8() throws {
        let short: [UInt32: String] = [0x08: #"\b"#, 0x0C: #"\f"#, 0x0A: #"\n"#, 0x0D: #"\r"#, 0x09: #"\t"#,
                                       0x22: #"\""#, 0x5C: #"\\"#]
        for value in Array(UInt32(0)...0x7F) + [0x85, 0x2028, 0x2029, 0xD7FF, 0xE000, 0xFEFF, 0xFFFF, 0x1F339, 0x10FFFF] {
            let scalar = try #require(Unicode.Scalar(value))
            let expected = short[value] ?? (value < 0x20 ? "\\u00" + (value < 0x10 ? "0" : "") + String(value, radix: 16) : String(scalar))
            #expect(text(try JSON.encode(String(scalar))) == "\"" + expected + "\"", "U+\(String(value, radix: 16))")
        }
        #expect(text(try JSON.encode("a/b")) == #""a/b""#)
        #expect(try JSON.encode("🌹玫瑰") == Array(#""🌹玫瑰""#.utf8))
    }

    @Test func randomStringsAreWrittenAsFoundationWritesThemAndReadBack() throws {
        var random = SeededGenerator(seed: 17_001)
        for index in 0..<5_000 {
            let string = random.text(maxLength: 40)
            let (ours, _) = try encodings(string, "string \(index) \(string.debugDescription)")
            try #require(try JSON.decoder().decode(String.self, from: Data(ours)) == string, "string \(index)")
            // The same text as an object key, sorted among other keys by its unescaped bytes.
            let object = Dictionary([(string, index), (random.text(maxLength: 6), -index), (random.text(maxLength: 2), 0)],
                                    uniquingKeysWith: { first, _ in first })
            let (keyed, _) = try encodings(object, "string \(index) as a key")
            try #require(try JSON.decoder().decode([String: Int].self, from: Data(keyed)) == object, "string \(index) as a key")
        }
    }

    @Test func randomDTOsAreWrittenAsFoundationWritesThemAndReadBackEqual() throws {
        var random = SeededGenerator(seed: 17_002)
        for index in 0..<1_500 {
            let node = RandomNode(&random)
            let (ours, _) = try encodings(node, "DTO \(index)")
            let decoded = try JSON.decoder().decode(RandomNode.self, from: Data(ours))
            try #require(decoded == node, "DTO \(index) read back differently from \(text(ours))")
        }
    }

    @Test func randomJSONValuesUnderAnyKeysAreWrittenAsFoundationWritesThem() throws {
        var random = SeededGenerator(seed: 17_003)
        for index in 0..<3_000 {
            let value = RandomJSON(&random)
            let (ours, _) = try encodings(value, "value \(index)")
            try #require((try? JSONSerialization.jsonObject(with: Data(ours), options: .fragmentsAllowed)) != nil, "value \(index)")
        }
    }

    @Test func randomDatesAreWrittenAsFoundationWritesThem() throws {
        var random = SeededGenerator(seed: 17_004)
        for index in 0..<5_000 {
            let date = random.anyDate()
            let (ours, _) = try encodings([date], "date \(index) (\(date.timeIntervalSince1970))")
            let seconds = date.timeIntervalSince1970
            if seconds == seconds.rounded(.down), seconds >= -11_644_473_600, seconds < 253_402_300_800 {
                try #require(try JSON.decoder().decode([Date].self, from: Data(ours)) == [date], "date \(index)")
            }
        }
        #expect(text(try JSON.encode(Date(timeIntervalSince1970: 1_796_025_600.999))) == #""2026-11-30T08:00:00Z""#)
        #expect(text(try JSON.encode(Date(timeIntervalSince1970: -0.5))) == #""1969-12-31T23:59:59Z""#)
    }

    @Test func swiftNamesBecomeTheSameWireNamesAsSnakeCase() {
        var random = SeededGenerator(seed: 17_005)
        for _ in 0..<5_000 {
            let name = random.memberName()
            let writer = JSONWriter()
            if writer.appendSnakeCaseKey(name) {
                #expect(text(writer.bytes()) == "\"" + JSON.snakeCase(name) + "\":", "\(name)")
            } else {
                #expect(name.unicodeScalars.contains { !$0.isASCII || $0.value < 0x20 || $0 == "\"" || $0 == "\\" }, "\(name)")
            }
        }
    }

    @Test func integersOfEveryWidthAndTheirExtremesAreExact() throws {
        struct Widths: Codable, Equatable {
            var int = [Int.min, Int.max, 0, -1]
            var int8 = [Int8.min, Int8.max]
            var int16 = [Int16.min, Int16.max]
            var int32 = [Int32.min, Int32.max]
            var uint = [UInt.max, 0]
            var uint8 = [UInt8.max]
            var uint16 = [UInt16.max]
            var uint32 = [UInt32.max]
            var uint64 = [UInt64.max]
            var float = [Float(0.1), Float(1e20), -Float.greatestFiniteMagnitude]
            var decimal = Decimal(string: "-123.4500")!
        }
        let (ours, _) = try encodings(Widths(), "widths")
        #expect(try JSON.decoder().decode(Widths.self, from: Data(ours)) == Widths())
    }

    @Test func nestedContainersSuperEncodersAndInterleavedWritesMatchFoundation() throws {
        var random = SeededGenerator(seed: 17_006)
        for index in 0..<500 {
            let animal = Dog(name: random.text(), goodBoy: random.chance(0.5), tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in random.text() })
            _ = try encodings(animal, "dog \(index)")
            _ = try encodings(Interleaved(values: (0..<6).map { _ in random.extremeInt64() }), "interleaved \(index)")
        }
    }

    @Test func aValueThatThrowsUnderTryLeavesNoTraceAsInFoundation() throws {
        _ = try encodings(PartlyFailing(), "partly failing")
    }

    @Test func whatFoundationRefusesIsRefused() {
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try JSON.encode(bad) }
            #expect(throws: EncodingError.self) { try JSON.encode(["price": bad]) }
            #expect(throws: EncodingError.self) { try JSON.encode([Float(bad)]) }
        }
        #expect(throws: EncodingError.self) { try JSON.encode(WritesNothing()) }
        #expect(text((try? JSON.encode([WritesNothing()])) ?? []) == "[{}]")
    }

    @Test func aValueSeesItsWholeCodingPath() throws {
        struct Outer: Encodable {
            let inner: [String: [PathProbe]]
            let list: [[PathProbe]]
            let skuID: PathProbe
        }
        func outer(_ log: PathLog) -> Outer {
            Outer(inner: ["byPhone": [PathProbe(log: log), PathProbe(log: log)]], list: [[PathProbe(log: log)]], skuID: PathProbe(log: log))
        }
        let ours = PathLog(), foundation = PathLog()
        _ = try JSON.encode(outer(ours))
        _ = try JSON.encoder().encode(outer(foundation))
        #expect(ours.paths == [["inner", "byPhone", "#0"], ["inner", "byPhone", "#1"], ["list", "#0", "#0"], ["skuID"]])
        // Foundation agrees outside `[String: Value]`; inside one it drops the member key above it.
        #expect(Array(ours.paths.dropFirst(2)) == Array(foundation.paths.dropFirst(2)))
    }
}

// MARK: - Fixtures

/// Records the coding path each time it is encoded.
final class PathLog {
    var paths: [[String]] = []
}

struct PathProbe: Encodable {
    let log: PathLog

    func encode(to encoder: any Encoder) throws {
        log.paths.append(encoder.codingPath.map { key in key.intValue.map { "#\($0)" } ?? key.stringValue })
        var container = encoder.singleValueContainer()
        try container.encode(true)
    }
}

class Animal: Encodable {
    let name: String

    init(name: String) { self.name = name }
}

/// A subclass that writes its superclass's fields under `super`, through a super encoder.
final class Dog: Animal {
    let goodBoy: Bool
    let tags: [String]

    init(name: String, goodBoy: Bool, tags: [String]) {
        self.goodBoy = goodBoy
        self.tags = tags
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case goodBoy, tags, parentRecord }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(goodBoy, forKey: .goodBoy)
        try super.encode(to: container.superEncoder())
        var tagList = container.nestedUnkeyedContainer(forKey: .tags)
        try super.encode(to: tagList.superEncoder())
        for tag in tags { try tagList.encode(tag) }
        try super.encode(to: container.superEncoder(forKey: .parentRecord))
    }
}

/// Writes to a nested object, a nested array and the outer object in turn, then to a nested
/// object asked for twice under one key (Foundation continues the same object).
struct Interleaved: Encodable {
    let values: [Int64]

    private enum Keys: String, CodingKey { case a, nestedObject, nestedList, zLast }

    func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: Keys.self)
        var object = outer.nestedContainer(keyedBy: Keys.self, forKey: .nestedObject)
        var list = outer.nestedUnkeyedContainer(forKey: .nestedList)
        try outer.encode(values[0], forKey: .zLast)
        try object.encode(values[1], forKey: .zLast)
        try list.encode(values[2])
        var inList = list.nestedContainer(keyedBy: Keys.self)
        try list.encode(values[3])
        try inList.encode(values[4], forKey: .a)
        var again = outer.nestedContainer(keyedBy: Keys.self, forKey: .nestedObject)
        try again.encode(values[5], forKey: .a)
        try outer.encode(values[0], forKey: .a)
    }
}

/// Members and elements that throw under `try?`: neither their key nor their comma stays.
struct PartlyFailing: Encodable {
    private enum Keys: String, CodingKey { case before, failing, nestedFailure, after }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .before)
        try? container.encode([1.5, .nan], forKey: .failing)
        try? container.encode(["deep": [["x": Double.infinity]]], forKey: .nestedFailure)
        var list = container.nestedUnkeyedContainer(forKey: .after)
        try list.encode("kept")
        try? list.encode(Float.nan)
        try? list.encode([Double.nan])
        try list.encode("also kept")
    }
}

struct WritesNothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}
