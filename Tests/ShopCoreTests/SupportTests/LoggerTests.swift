import Foundation
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Logger")
struct LoggerTests {
    typealias Lines = Outcomes<String>

    private func capturing(_ level: Logger.Level) -> (Logger, Lines) {
        let lines = Lines()
        return (Logger(minimumLevel: level) { lines.record($0) }, lines)
    }

    @Test("Values are quoted only when needed and never span lines", arguments: [
        ("plain", "plain"), ("玫瑰", "玫瑰"), ("13800138000", "13800138000"), ("", #""""#),
        ("two words", #""two words""#), ("line\nbreak", #""line\nbreak""#), ("cr\rlf", #""cr\rlf""#),
        ("tab\there", #""tab\there""#), (#"say "hi""#, #""say \"hi\"""#), (#"back\slash"#, #""back\\slash""#),
        ("bell\u{7}", #""bell\u0007""#), ("del\u{7f}", #""del\u007f""#), ("k=v", "k=v"),
    ])
    func valuesAreQuotedSafely(_ value: String, _ expected: String) {
        let quoted = Logger.quoted(value)
        #expect(quoted == expected)
        #expect(!quoted.contains("\n") && !quoted.contains("\r"))
    }

    @Test func anEventIsOneLineWithItsLevelMessageAndFieldsInOrder() throws {
        let (logger, lines) = capturing(.debug)
        logger.info("order paid", ["number": "20261130000123", "note": "送到\n前台", "who": "张 三"])
        let line = try #require(lines.all.first)
        #expect(lines.all.count == 1)
        #expect(!line.contains("\n"))
        let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
        #expect(parts.count == 3)
        #expect(parts[1] == "INFO")
        #expect(parts[2] == #"order paid number=20261130000123 note="送到\n前台" who="张 三""#)
        // The timestamp is an ISO 8601 instant.
        #expect(ISO8601DateFormatter().date(from: parts[0]) != nil)
    }

    @Test func eventsBelowTheMinimumLevelAreDropped() {
        let (logger, lines) = capturing(.warning)
        logger.debug("d")
        logger.info("i")
        logger.warning("w")
        logger.error("e")
        logger.log(.info, "i2")
        logger.log(.error, "e2")
        #expect(lines.all.map { $0.split(separator: " ")[1] } == ["WARN", "ERROR", "ERROR"])
        #expect(lines.all.map { $0.split(separator: " ")[2] } == ["w", "e", "e2"])
    }

    @Test func debugLevelKeepsEverything() {
        let (logger, lines) = capturing(.debug)
        for level in Logger.Level.allCases { logger.log(level, "m") }
        #expect(lines.all.map { $0.split(separator: " ")[1] } == ["DEBUG", "INFO", "WARN", "ERROR"])
    }

    @Test func theJSONFormatWritesOneObjectPerLineWithTimeLevelMessageAndFields() throws {
        let lines = Lines()
        let logger = Logger(minimumLevel: .debug, format: .json) { lines.record($0) }
        let tricky = "送到\n前台 \"quoted\" back\\slash\ttab\u{7}bell\u{2028}"
        logger.warning("order paid", ["id": "c9c5aa71d5f7d9ce", "note": tricky, "empty": "", "level": "shadowed"])
        let line = try #require(lines.all.first)
        #expect(lines.all.count == 1)
        #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{2028}"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["message"] as? String == "order paid")
        #expect(object["id"] as? String == "c9c5aa71d5f7d9ce")
        #expect(object["note"] as? String == tricky)
        #expect(object["empty"] as? String == "")
        #expect(object["level_"] as? String == "shadowed")
        #expect(Set(object.keys) == ["time", "level", "message", "id", "note", "empty", "level_"])
        #expect(ISO8601DateFormatter().date(from: try #require(object["time"] as? String)) != nil)
        // Keys in a fixed order: time, level, message, then the fields as given.
        #expect(line.hasPrefix(#"{"time":""#))
        let order = try ["\"level\":", "\"message\":", "\"id\":", "\"note\":", "\"empty\":", "\"level_\":"]
            .map { try #require(line.range(of: $0)).lowerBound }
        #expect(order == order.sorted())
    }

    @Test func theJSONFormatKeepsTheMinimumLevel() {
        let lines = Lines()
        let logger = Logger(minimumLevel: .warning, format: .json) { lines.record($0) }
        logger.info("dropped")
        logger.error("kept")
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains(#""level":"error""#) == true)
    }

    @Test func levelsAreOrdered() {
        #expect(Logger.Level.debug < .info && Logger.Level.info < .warning && Logger.Level.warning < .error)
    }
}
