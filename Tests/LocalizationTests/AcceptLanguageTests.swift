import Localization
import Testing

@Suite("Accept-Language")
struct AcceptLanguageTests {
    @Test(arguments: [
        ("zh-CN", Language.chinese),
        ("zh", .chinese),
        ("zh-Hans-CN", .chinese),
        ("zh-TW", .chinese),
        ("ZH-cn", .chinese),
        ("en", .english),
        ("en-US", .english),
        ("en-US,en;q=0.9", .english),
        ("EN-gb", .english),
    ])
    func aChineseOrEnglishRangeChoosesThatLanguage(header: String, expected: Language) {
        #expect(Language(acceptLanguage: header) == expected)
    }

    @Test(arguments: [
        ("zh-CN,zh;q=0.9,en;q=0.8", Language.chinese),
        ("en-US,en;q=0.9,zh-CN;q=0.8", .english),
        ("zh;q=0.5, en;q=0.8", .english),
        ("en;q=0.2, zh;q=0.7", .chinese),
        ("fr-FR, fr;q=0.9, en;q=0.5", .english),
        ("de, zh;q=0.1", .chinese),
        ("en;q=1.000, zh;q=0.999", .english),
        (" en ; q=0.9 , zh ; q=0.3 ", .english),
    ])
    func theHighestQValueAmongOurLanguagesWins(header: String, expected: Language) {
        #expect(Language(acceptLanguage: header) == expected)
    }

    @Test func onATieTheFirstListedWins() {
        #expect(Language(acceptLanguage: "en, zh") == .english)
        #expect(Language(acceptLanguage: "zh, en") == .chinese)
        #expect(Language(acceptLanguage: "en;q=0.5, zh;q=0.5") == .english)
    }

    @Test func aWildcardMeansTheDefaultUnlessItIsRefused() {
        #expect(Language(acceptLanguage: "*") == .chinese)
        #expect(Language(acceptLanguage: "*;q=0.5, en;q=0.1") == .chinese)
        #expect(Language(acceptLanguage: "en, *;q=0.1") == .english)
        #expect(Language(acceptLanguage: "zh;q=0, *") == .english)
    }

    @Test func aLanguageWithQZeroIsNotChosen() {
        #expect(Language(acceptLanguage: "zh;q=0, en;q=0.1") == .english)
        #expect(Language(acceptLanguage: "en;q=0, zh;q=0.1") == .chinese)
        #expect(Language(acceptLanguage: "en;q=0") == .chinese, "nothing acceptable: the default")
    }

    @Test(arguments: [
        nil, "", " ", ",,,", "fr", "ja-JP, de;q=0.5", "english", "zh_CN", "en;q=2", "en;q=abc", "en;q=-1", "en;q=0.12345",
        ";q=0.5", "\u{00E9}n", "en\u{0000}", String(repeating: "en-", count: 1000), "*;q=0",
    ])
    func aMissingUnsupportedOrGarbledHeaderGivesChinese(header: String?) {
        #expect(Language(acceptLanguage: header) == .chinese)
    }

    @Test func theContentLanguageTagsAreBCP47() {
        #expect(Language.chinese.tag == "zh-Hans")
        #expect(Language.english.tag == "en")
        #expect(Language.default == .chinese)
    }
}
