import Crypto
import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Synonyms dictionary and pinyin table")
struct SynonymDictionaryTests {
    func problems(_ text: String) -> [SynonymProblem] {
        do {
            _ = try SynonymDictionary(parsing: text)
            return []
        } catch {
            guard case .invalid(let problems) = error else { return [] }
            return problems
        }
    }

    @Test func rewritesGoOneWayAndPlainGroupsBothWaysCaseAndSpacesIgnored() throws {
        let dictionary = try SynonymDictionary(parsing: "# comment\n\n送妈妈, 母亲节 => 康乃馨\nRose，玫瑰 ,玫瑰花\n")
        #expect(dictionary.terms(for: "送妈妈") == ["康乃馨"])
        #expect(dictionary.terms(for: "康乃馨").isEmpty)
        #expect(dictionary.terms(for: "rose") == ["玫瑰", "玫瑰花"])
        #expect(dictionary.terms(for: "玫瑰花") == ["rose", "玫瑰"])
    }

    @Test func aLatinWordWithinOneOrTwoEditsFindsTheNearestTerm() throws {
        let dictionary = SynonymDictionary.shipped
        #expect(dictionary.nearestTerms(for: "tulp") == ["tulip", "郁金香"])
        #expect(dictionary.nearestTerms(for: "carnaton") == ["carnation", "康乃馨"])
        #expect(dictionary.nearestTerms(for: "sunflwer").contains("向日葵"))
        #expect(dictionary.nearestTerms(for: "xyzzy").isEmpty)
        #expect(dictionary.nearestTerms(for: "meigui").isEmpty)
        #expect(dictionary.nearestTerms(for: "rose").isEmpty, "a term itself is no typo")
        #expect(dictionary.nearestTerms(for: "abc").isEmpty, "three letters are too few to guess from")
    }

    @Test func everyProblemIsNamedWithItsLine() throws {
        #expect(problems("a => b\nb => a\n").map(\.line) == [2])
        #expect(problems("a => b\nb => a\n").first?.rule == .cycle)
        #expect(problems("a => a").first?.rule == .cycle)
        #expect(problems("ok,fine\n , \n").map(\.rule) == [.emptyGroup])
        #expect(problems("ok,fine\n\n => x").map(\.line) == [3])
        #expect(problems("a,,b").first?.rule == .emptyTerm)
        #expect(problems("lonely").first?.rule == .singleTerm)
        #expect(problems("a => b => c").first?.rule == .twoArrows)
        let huge = (0..<10_000).map { "w\($0)" }.joined(separator: ",")
        #expect(problems("a,b\n" + huge).map(\.line) == [2])
        let wide = (0..<150).map { "w\($0)" }.joined(separator: ",")
        #expect(problems("a,b\nc,d\n" + wide).first?.rule == .groupTooLarge)
        #expect(problems(String(repeating: "x", count: 65) + ",y").first?.rule == .termTooLong)
        #expect(problems(String(repeating: "\n", count: 10_001)).first?.rule == .tooManyLines)
        #expect(problems("a,b\nc => d\nd => e\ne => c").first?.line == 4)
    }

    @Test func theShippedDictionaryReadsAndIsTheFileInTheSourceTree() throws {
        let file = try String(contentsOf: Repository.root().appendingPathComponent("Config/search_synonyms.txt"), encoding: .utf8)
        #expect(SynonymDictionary.shippedData == file)
        #expect(SynonymDictionary.shipped.terms(for: "开业").contains("花篮"))
        #expect(SynonymDictionary.shipped.terms(for: "送妈妈") == ["康乃馨"])
    }

    // MARK: pinyin

    @Test func thePinyinTableIsTheGeneratorsOutputUnedited() throws {
        let file = try String(contentsOf: Repository.root().appendingPathComponent("Pinyin/mandarin.tsv"), encoding: .utf8)
        #expect(PinyinTable.shippedData == file)
        let table = PinyinTable.shipped
        let data = file.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0 + "\n" }.joined()
        #expect(table.header["rows sha256"] == Hex.encode(Digest.sha256(Array(data.utf8))),
                "Pinyin/mandarin.tsv was edited by hand: run scripts/pinyin_from_unihan.py")
        #expect(table.header["rows"] == String(table.count))
        #expect(table.header["source"]?.hasPrefix("Debian unicode-data 15.0.0-1") == true)
        #expect(table.header["licence"]?.hasPrefix("Unicode License v3") == true)
        #expect(table.count > 20_000, "the URO block and Extension A")
    }

    @Test func polyphonicCharactersHaveEveryReading() throws {
        let table = PinyinTable.shipped
        #expect(table.readings(of: "行") == ["xing", "hang", "heng"])
        #expect(table.readings(of: "长") == ["zhang", "chang"])
        #expect(table.readings(of: "绿").first == "lv")
        #expect(table.spellings(of: "玫瑰")?.full == ["meigui"])
        #expect(table.spellings(of: "玫瑰")?.initials == ["mg"])
        #expect(table.spellings(of: "银行")?.full.contains("yinhang") == true)
        #expect(table.spellings(of: "长寿花")?.full.contains("changshouhua") == true)
    }

    @Test func aQuerysSpellingIgnoresToneMarksSpacesAndCase() {
        #expect(PinyinTable.spelling(of: "méiguī") == "meigui")
        #expect(PinyinTable.spelling(of: "Mei Gui") == "meigui")
        #expect(PinyinTable.spelling(of: "lǜ") == "lv")
        #expect(PinyinTable.spelling(of: "lu:") == "lv")
        #expect(PinyinTable.spelling(of: "xi'an") == "xian")
        #expect(PinyinTable.spelling(of: "玫瑰") == nil)
        #expect(PinyinTable.spelling(of: "520") == nil)
        #expect(PinyinTable.spelling(of: "!!!") == nil)
        #expect(PinyinTable.spelling(of: "   ") == nil)
    }
}
