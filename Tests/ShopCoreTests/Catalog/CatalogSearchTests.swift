import Foundation
import Localization
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Catalogue search: substrings, case, ranking, literal text")
struct CatalogSearchTests {
    private func searchShop() throws -> TestShop {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "ROSE", sku: "ROSE-1", title: "红玫瑰花束", subtitle: "热恋", category: "花束/玫瑰", description: "十一枝"),
            CatalogLine(product: "LOVE", sku: "LOVE-1", title: "Love 玫瑰礼盒", category: "礼盒", price: "299"),
            CatalogLine(product: "LILY", sku: "LILY-1", title: "香水百合", subtitle: "送妈妈", category: "花束/百合",
                        description: "淡雅的香气"),
            CatalogLine(product: "QUOTE", sku: "QUOTE-1", title: "\"限量\"款 满100-20", category: "礼盒",
                        description: "OR AND NOT NEAR( * 50%_off a\"b back\\slash"),
            CatalogLine(product: "EMOJI", sku: "EMOJI-1", title: "🌹 一枝独秀", category: "花束/玫瑰"),
        ])
        return fixture
    }

    @Test func aTwoCharacterChineseQueryFindsATitleContainingIt() throws {
        let fixture = try searchShop()
        #expect(Set(try fixture.catalogTitles("玫瑰")) == ["红玫瑰花束", "Love 玫瑰礼盒"])
        #expect(try fixture.catalogTitles("百") == ["香水百合"])
        #expect(try fixture.catalogTitles("妈妈") == ["香水百合"]) // a subtitle hit
    }

    @Test func aLongerChineseSubstringIsFoundThroughFullTextSearch() throws {
        let fixture = try searchShop()
        #expect(try fixture.catalogTitles("红玫瑰") == ["红玫瑰花束"])
        #expect(try fixture.catalogTitles("玫瑰花束") == ["红玫瑰花束"])
        #expect(try fixture.catalogTitles("淡雅的") == ["香水百合"]) // a description hit
        #expect(try fixture.catalogTitles("白玫瑰").isEmpty)
    }

    @Test func latinTextIsCaseInsensitive() throws {
        let fixture = try searchShop()
        for query in ["LOVE", "love", "LoVe", "lo", "LO", "ove 玫"] {
            #expect(try fixture.catalogTitles(query) == ["Love 玫瑰礼盒"], "\(query)")
        }
    }

    @Test func surroundingWhitespaceIsIgnoredAndBlankMeansNoSearch() throws {
        let fixture = try searchShop()
        #expect(try fixture.catalogTitles("  红玫瑰 \n") == ["红玫瑰花束"])
        #expect(try fixture.catalogTitles("   ").count == 5)
        #expect(try fixture.catalogTitles("").count == 5)
    }

    @Test func aTitleMatchRanksAboveADescriptionFullOfTheWord() throws {
        let fixture = try TestShop()
        let repeated = Array(repeating: "香槟玫瑰", count: 30).joined(separator: " ")
        let sunflowers = Array(repeating: "sunflower", count: 30).joined(separator: " ")
        // The description-only products come first in the file and sell more, so neither id nor sales puts the title first.
        try fixture.importCatalogLines([
            CatalogLine(product: "D1", sku: "D1-1", title: "混搭花束", description: repeated),
            CatalogLine(product: "D2", sku: "D2-1", title: "田园花篮", description: "Sunflower " + sunflowers),
            CatalogLine(product: "T1", sku: "T1-1", title: "香槟玫瑰", description: "温柔"),
            CatalogLine(product: "T2", sku: "T2-1", title: "Sunflower 向日葵", description: "明亮"),
            CatalogLine(product: "S1", sku: "S1-1", title: "精选花束", subtitle: "香槟玫瑰 向日葵 sunflower"),
        ])
        try fixture.setCatalogSales(1_000, code: "D1")
        try fixture.setCatalogSales(1_000, code: "D2")
        #expect(try fixture.catalogTitles("香槟玫瑰") == ["香槟玫瑰", "精选花束", "混搭花束"])
        #expect(try fixture.catalogTitles("SUNFLOWER") == ["Sunflower 向日葵", "精选花束", "田园花篮"])
        #expect(try fixture.catalogTitles("香槟玫瑰", sort: .relevance) == ["香槟玫瑰", "精选花束", "混搭花束"])
        // An explicit sort still applies to a search.
        #expect(try fixture.catalogTitles("香槟玫瑰", sort: .sales).first == "混搭花束")
    }

    @Test func aShortQueryRanksTitleHitsAboveSubtitleHits() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "A", sku: "A-1", title: "精选花束", subtitle: "玫瑰与百合"),
            CatalogLine(product: "B", sku: "B-1", title: "白玫瑰"),
        ])
        try fixture.setCatalogSales(500, code: "A")
        #expect(try fixture.catalogTitles("玫瑰") == ["白玫瑰", "精选花束"])
    }

    static let specialInputs = ["\"", "\"\"", "\"\"\"", "*", "OR", "AND", "NOT", "-", "NEAR(", "NEAR(a b)", "a\"b", "玫瑰\"",
                                "\"玫瑰", "%", "_", "\\", "%%%", "_%\\", "🌹", "🌹🌹🌹", "👨‍👩‍👧", "'", "';--", "(", ")", "^", ":",
                                "title:玫瑰", "{title}:玫瑰", "玫瑰 OR 百合", "玫* ", "-玫瑰", "+", "NEAR(玫瑰 百合, 2)", "\u{200B}",
                                "ǅ", "İ", "ß", "\u{301}", "a\u{301}"]

    @Test(arguments: specialInputs)
    func specialInputIsSearchedAsTextAndNeverThrows(_ query: String) throws {
        let fixture = try searchShop()
        for sort in [nil, ProductSort.relevance, .newest] {
            let page = try fixture.catalogService.products(ProductQuery(text: query, sort: sort, page: try PageRequest()), unlessAt: nil).current
            #expect(page.page == 1)
            #expect(page.perPage == 20)
            #expect(page.total == page.items.count)
        }
        _ = try fixture.catalogService.suggestions(query)
    }

    @Test func specialCharactersAreMatchedLiterally() throws {
        let fixture = try searchShop()
        let quoted = "\"限量\"款 满100-20"
        #expect(try fixture.catalogTitles("\"限量\"") == [quoted])
        #expect(try fixture.catalogTitles("限量\"") == [quoted])
        #expect(try fixture.catalogTitles("-20") == [quoted])
        #expect(try fixture.catalogTitles("-") == [quoted])
        #expect(try fixture.catalogTitles("\"") == [quoted])
        #expect(try fixture.catalogTitles("NEAR(") == [quoted])
        #expect(try fixture.catalogTitles("OR AND") == [quoted])
        #expect(try fixture.catalogTitles("a\"b") == [quoted])
        #expect(try fixture.catalogTitles("50%_off") == [quoted])
        #expect(try fixture.catalogTitles("k\\s") == [quoted])
        #expect(try fixture.catalogTitles("🌹") == ["🌹 一枝独秀"])
        // Neither a wildcard nor an operator: at most the product whose text holds the character.
        for wildcard in ["%", "_", "*", "\\"] {
            #expect(Set(try fixture.catalogTitles(wildcard)).isSubset(of: [quoted]), "\(wildcard)")
        }
        #expect(try fixture.catalogTitles("玫*").isEmpty)
        #expect(try fixture.catalogTitles("红玫瑰 OR 百合").isEmpty)
        #expect(try fixture.catalogTitles("NOT 玫瑰").isEmpty)
    }

    @Test func aQueryOf64CharactersIsAcceptedAnd65IsNot() throws {
        let fixture = try searchShop()
        #expect(try fixture.catalogTitles(String(repeating: "玫", count: 64)).isEmpty)
        #expect(try fixture.catalogTitles(String(repeating: "🌹", count: 64)).isEmpty)
        let error = #expect(throws: ValidationError.self) { try fixture.catalogTitles(String(repeating: "玫", count: 65)) }
        #expect(error?.field == "q")
        #expect(error?.message == LocalizedText(zh: "搜索词最多 64 个字。", en: "q must be at most 64 characters."))
        #expect(throws: ValidationError.self) { try fixture.catalogService.suggestions(String(repeating: "a", count: 65)) }
    }

    @Test func controlCharactersInAQueryAreReadAsSpaces() throws {
        let fixture = try searchShop()
        #expect(try fixture.catalogTitles("\u{1}玫瑰\u{0}") == fixture.catalogTitles("玫瑰"))
        #expect(try fixture.catalogTitles("玫\u{0}瑰").isEmpty)
    }

    // MARK: Suggestions

    @Test func suggestionsPutPrefixMatchesFirstAndStopAtTen() throws {
        let fixture = try TestShop()
        var lines: [CatalogLine] = []
        for index in 1...8 {
            lines.append(CatalogLine(product: "IN\(index)", sku: "IN\(index)-1", title: "红色玫瑰\(index)号", category: "花束"))
        }
        for index in 1...6 {
            lines.append(CatalogLine(product: "PRE\(index)", sku: "PRE\(index)-1", title: "玫瑰礼盒\(index)号", category: "礼盒"))
        }
        lines.append(CatalogLine(product: "CAT", sku: "CAT-1", title: "向日葵", category: "玫瑰"))
        lines.append(CatalogLine(product: "OFF", sku: "OFF-1", title: "玫瑰下架款", category: "礼盒", status: "off_sale"))
        try fixture.importCatalogLines(lines)

        let items = try fixture.catalogService.suggestions("玫瑰")
        #expect(items.count == 10)
        #expect(Set(items).count == items.count)
        #expect(items.allSatisfy { $0.contains("玫瑰") })
        #expect(items.prefix(7).allSatisfy { $0.hasPrefix("玫瑰") })
        #expect(items.contains("玫瑰")) // the category
        #expect(Array(items.dropFirst(7)).allSatisfy { !$0.hasPrefix("玫瑰") })
        #expect(!items.contains("玫瑰下架款"))

        #expect(try fixture.catalogService.suggestions("玫").count == 10)
        #expect(try fixture.catalogService.suggestions("  ").isEmpty)
        #expect(try fixture.catalogService.suggestions(nil).isEmpty)
        #expect(try fixture.catalogService.suggestions("%").isEmpty)
        #expect(try fixture.catalogService.suggestions("_").isEmpty)
    }

    // MARK: Hot keywords

    @Test func hotKeywordsCountOnlyTheLastSevenDays() throws {
        let fixture = try searchShop()
        for person in 1...5 { try fixture.catalogSearch("香水", by: person) }
        fixture.clock.advance(by: 8 * 86_400)
        for person in 1...5 { try fixture.catalogSearch("玫瑰", by: person) }
        for person in 1...2 { try fixture.catalogSearch("LOVE", by: person) }
        for person in 3...4 { try fixture.catalogSearch("love", by: person) }
        for person in 1...3 { try fixture.catalogSearch("百合", by: person) }
        let hot = try fixture.catalogService.hotKeywords()
        #expect(hot == [HotKeyword(keyword: "玫瑰", count: 5), HotKeyword(keyword: "love", count: 4),
                        HotKeyword(keyword: "百合", count: 3)])

        fixture.clock.advance(by: 6 * 86_400)
        #expect(try fixture.catalogService.hotKeywords().map(\.keyword) == ["玫瑰", "love", "百合"])
        fixture.clock.advance(by: 2 * 86_400)
        #expect(try fixture.catalogService.hotKeywords().isEmpty)
    }

    @Test func hotKeywordsAreAtMostTenMostSearchedFirst() throws {
        let fixture = try searchShop()
        // twelve keywords that each find something, the n-th searched by n people
        let keywords = ["红", "玫", "瑰", "花", "束", "礼", "盒", "香", "水", "百", "合", "love"]
        for (index, keyword) in keywords.enumerated() {
            for person in 0...index { try fixture.catalogSearch(keyword, by: person) }
        }
        let hot = try fixture.catalogService.hotKeywords()
        #expect(hot.map(\.keyword) == Array(keywords.reversed().prefix(10)))
        #expect(hot.map(\.count) == Array((3...12).reversed()))
    }

    @Test func aRejectedSearchIsNotCounted() throws {
        let fixture = try searchShop()
        _ = try? fixture.catalogTitles(String(repeating: "a", count: 65))
        _ = try? fixture.catalogTitles("玫瑰", category: CategoryID(9_999))
        #expect(try fixture.catalogService.hotKeywords().isEmpty)
    }
}

extension TestShop {
    /// One search of `text` by person number `person` (a client address of their own).
    func catalogSearch(_ text: String, by person: Int) throws {
        _ = try catalogService.products(ProductQuery(text: text, page: try PageRequest(),
                                                     searcher: Visitor(user: nil, clientIP: "10.9.0.\(person)")), unlessAt: nil).current
    }
}
