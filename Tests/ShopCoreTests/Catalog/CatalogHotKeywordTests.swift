import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Hot keywords: distinct searchers, found something, cleaned")
struct CatalogHotKeywordTests {
    private func hotShop(_ configure: (inout Config) -> Void = { _ in }) throws -> TestShop {
        let fixture = try TestShop(configure)
        try fixture.importCatalogLines([
            CatalogLine(product: "ROSE", sku: "ROSE-1", title: "红玫瑰花束", category: "花束/玫瑰"),
            CatalogLine(product: "LOVE", sku: "LOVE-1", title: "Love 玫瑰礼盒", category: "礼盒"),
            CatalogLine(product: "QUOTE", sku: "QUOTE-1", title: "限量款", category: "礼盒",
                        description: "abcdefghijklmnopqrstuvwxyz0123456789"),
        ])
        return fixture
    }

    @Test func aLoopOfSearchesByOnePersonNeverMakesAKeywordHot() throws {
        let fixture = try hotShop()
        for _ in 0..<30 { try fixture.catalogSearch("玫瑰", by: 1) }
        try fixture.catalogSearch("玫瑰", by: 2)
        #expect(try fixture.catalogService.hotKeywords().isEmpty)

        try fixture.catalogSearch("玫瑰", by: 3)
        #expect(try fixture.catalogService.hotKeywords() == [HotKeyword(keyword: "玫瑰", count: 3)])
    }

    @Test func aSignedInSearcherCountsOnceFromAnyAddress() throws {
        let fixture = try hotShop()
        let user = try fixture.register("13800000001").user.id
        for index in 0..<5 {
            _ = try fixture.catalogService.products(ProductQuery(text: "玫瑰", page: try PageRequest(),
                                                                 searcher: Visitor(user: user, clientIP: "10.7.0.\(index)")), unlessAt: nil).current
        }
        #expect(try fixture.catalogService.hotKeywords().isEmpty)
    }

    @Test func aKeywordThatFoundNothingIsNeverHot() throws {
        let fixture = try hotShop()
        for person in 1...5 { try fixture.catalogSearch("加微信abc123代购", by: person) }
        for person in 1...5 { try fixture.catalogSearch("满天星", by: person) }
        #expect(try fixture.catalogService.hotKeywords().isEmpty)
    }

    @Test func aKeywordContainingABlockedWordNeverShowsWhateverItsCase() throws {
        let fixture = try hotShop { $0.search.blockedWords = ["love", "红玫"] }
        for person in 1...5 {
            try fixture.catalogSearch("LOVE", by: person)
            try fixture.catalogSearch("红玫瑰", by: person)
            try fixture.catalogSearch("玫瑰", by: person)
        }
        #expect(try fixture.catalogService.hotKeywords().map(\.keyword) == ["玫瑰"])
    }

    @Test func theThresholdOfSearchersIsConfigured() throws {
        let fixture = try hotShop { $0.search.hotMinSearchers = 1 }
        try fixture.catalogSearch("礼盒", by: 1)
        #expect(try fixture.catalogService.hotKeywords() == [HotKeyword(keyword: "礼盒", count: 1)])
    }

    @Test func aKeywordLongerThanThirtyTwoCharactersIsNeverHot() throws {
        let fixture = try hotShop { $0.search.hotMinSearchers = 1 }
        let alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
        try fixture.catalogSearch(String(alphabet.prefix(33)), by: 1)
        try fixture.catalogSearch(String(alphabet.prefix(32)), by: 1)
        #expect(try fixture.catalogTitles(String(alphabet.prefix(33))) == ["限量款"], "the long search itself still works")
        #expect(try fixture.catalogService.hotKeywords().map(\.keyword) == [String(alphabet.prefix(32))])
    }

    @Test func invisibleAndControlCharactersKeepAKeywordOutOfTheHotList() {
        #expect(SearchText.mayBeHot("玫瑰花束"))
        #expect(SearchText.mayBeHot(String(repeating: "花", count: 32)))
        #expect(!SearchText.mayBeHot(String(repeating: "花", count: 33)))
        for invisible in ["\u{200B}", "\u{202E}", "\u{2028}", "\u{0007}", "\u{E000}", "\u{FEFF}"] {
            #expect(!SearchText.mayBeHot("玫瑰" + invisible + "花"), "\(invisible.unicodeScalars.first!.value)")
        }
    }
}
