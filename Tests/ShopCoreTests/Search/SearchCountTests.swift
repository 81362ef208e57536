import Foundation
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Search counts: per keyword and day, added across nodes, searchers capped, searches limited per address")
struct SearchCountTests {
    private func shop(_ configure: (inout Config) -> Void = { _ in }) throws -> TestShop {
        let fixture = try TestShop(configure)
        try fixture.importCatalogLines([CatalogLine(product: "ROSE", sku: "ROSE-1", title: "红玫瑰花束", category: "花束/玫瑰")])
        return fixture
    }

    private func counts(_ fixture: TestShop) throws -> [String] {
        try fixture.pool.read { db in
            try db.query("SELECT day, keyword, searches, found FROM search_counts").map { row in
                "\(try row.int64("day")) \(try row.string("keyword")) \(try row.int64("searches")) \(try row.int64("found"))"
            }.sorted()
        }
    }

    private func rows(_ table: String, _ fixture: TestShop) throws -> Int64 {
        try fixture.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier(table))") ?? -1 }
    }

    @Test func manySearchesOfAKeywordAreOneRowOfCountsADay() throws {
        let fixture = try shop { $0.search.hotMinSearchers = 2 }
        for _ in 0..<50 { try fixture.catalogSearch("玫瑰", by: 1) }
        for person in 1...3 { try fixture.catalogSearch("钢琴", by: person) }
        fixture.catalogService.flushSearches()
        let today = fixture.shop.clock.unixNow / 86_400
        #expect(try counts(fixture) == ["\(today) 玫瑰 50 50", "\(today) 钢琴 3 0"])
        #expect(try rows("search_searchers", fixture) == 1, "one person found something; nothing is kept for a search that found nothing")

        fixture.clock.advance(by: 86_400)
        try fixture.catalogSearch("玫瑰", by: 1)
        fixture.catalogService.flushSearches()
        #expect(try counts(fixture).last == "\(today + 1) 玫瑰 1 1")
        #expect(try fixture.catalogService.hotKeywords().isEmpty, "the same person on two days is still one searcher")
    }

    @Test func nodesSharingADatabaseAddTheirCounts() throws {
        let fixture = try shop()
        let other = CatalogService(pool: fixture.pool, search: fixture.shop.search, clock: fixture.shop.clock, logger: fixture.shop.logger, settings: fixture.shop.config.search)
        for person in 1...2 { try fixture.catalogSearch("玫瑰", by: person) }
        _ = try other.products(ProductQuery(text: "玫瑰", page: try PageRequest(), searcher: Visitor(user: nil, clientIP: "10.9.0.3")), unlessAt: nil).current
        fixture.catalogService.flushSearches()
        other.flushSearches()
        try fixture.catalogSearch("玫瑰", by: 1)
        fixture.catalogService.flushSearches()
        #expect(try counts(fixture) == ["\(fixture.shop.clock.unixNow / 86_400) 玫瑰 4 4"])
        #expect(try fixture.catalogService.hotKeywords() == [HotKeyword(keyword: "玫瑰", count: 3)])
    }

    @Test func aKeywordKeepsAtMostAThousandSearchersADay() throws {
        let fixture = try shop()
        let now = fixture.shop.clock.unixNow
        var tally = SearchTally()
        for person in 0..<(SearchStore.maxSearchersPerDay + 5) { tally.add("玫瑰", searcher: "ip:\(person)", found: true, at: now) }
        try fixture.pool.write { db in try SearchStore(engine: fixture.shop.search).add(tally, db) }
        var again = SearchTally()
        again.add("玫瑰", searcher: "ip:0", found: true, at: now + 10)
        again.add("玫瑰", searcher: "ip:new", found: true, at: now + 10)
        try fixture.pool.write { db in try SearchStore(engine: fixture.shop.search).add(again, db) }
        #expect(try rows("search_searchers", fixture) == Int64(SearchStore.maxSearchersPerDay))
        let seen = try fixture.pool.read { db in try db.scalarInt("SELECT last_found_at FROM search_searchers WHERE searcher = 'ip:0'") }
        #expect(seen == now + 10, "a searcher already kept is still brought up to date")
        #expect(try counts(fixture) == ["\(now / 86_400) 玫瑰 \(SearchStore.maxSearchersPerDay + 7) \(SearchStore.maxSearchersPerDay + 7)"])
    }

    @Test func nodesAddingAtOnceLoseNoSearchAndKeepTheCap() throws {
        let fixture = try shop()
        let now = fixture.shop.clock.unixNow
        let pool = fixture.pool
        let store = SearchStore(engine: fixture.shop.search)
        let failures = Outcomes<String>()
        race(6) { node in
            var tally = SearchTally()
            for person in 0..<250 { tally.add("玫瑰", searcher: "ip:\(node).\(person)", found: true, at: now) }
            tally.add("钢琴", searcher: "ip:\(node)", found: false, at: now)
            do { try pool.write { db in try store.add(tally, db) } } catch { failures.record(String(describing: error)) }
        }
        #expect(failures.all == [])
        #expect(try counts(fixture) == ["\(now / 86_400) 玫瑰 1500 1500", "\(now / 86_400) 钢琴 6 0"])
        #expect(try rows("search_searchers", fixture) == Int64(SearchStore.maxSearchersPerDay))
    }

    @Test func theCountsKeepThirtyDaysAndTheSearchersTheHotListsWeek() throws {
        let fixture = try shop()
        try fixture.catalogSearch("玫瑰", by: 1)
        fixture.catalogService.flushSearches()
        fixture.clock.advance(by: 7 * 86_400 + 1)
        try fixture.catalogService.purgeSearchLog()
        #expect(try rows("search_counts", fixture) == 1 && rows("search_searchers", fixture) == 0)
        fixture.clock.advance(by: 24 * 86_400)
        try fixture.catalogService.purgeSearchLog()
        #expect(try rows("search_counts", fixture) == 0)
    }

    @Test func searchesPastTheLimitOfAnAddressAreRefusedUntilTheMinuteEnds() throws {
        let fixture = try shop { $0.search.maxPerMinutePerIP = 3 }
        let start = fixture.shop.clock.unixNow
        fixture.clock.advance(by: TimeInterval(60 - start % 60 + 15))
        func search(from address: String, user: UserID? = nil, page: Int = 1) throws {
            _ = try fixture.catalogService.products(ProductQuery(text: "玫瑰", page: try PageRequest(page: page),
                                                                 searcher: Visitor(user: user, clientIP: address)), unlessAt: nil).current
        }
        try search(from: "10.1.0.1")
        try search(from: "10.1.0.1", page: 2)
        try search(from: "10.1.0.1", user: UserID(7))
        #expect(throws: CatalogError.tooManySearches(retryAfter: 45)) { try search(from: "10.1.0.1") }
        try search(from: "10.1.0.2")
        _ = try fixture.catalogService.products(ProductQuery(page: try PageRequest(), searcher: Visitor(user: nil, clientIP: "10.1.0.1")), unlessAt: nil).current

        for address in ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2::3"] { try search(from: address) }
        #expect(throws: CatalogError.tooManySearches(retryAfter: 45)) { try search(from: "2001:db8:1:2::77") }
        try search(from: "2001:db8:1:3::1")

        fixture.clock.advance(by: 45)
        try search(from: "10.1.0.1")
    }

    @Test func anIPv6AddressCountsByItsSlash64AndAMappedIPv4ByItself() {
        #expect(SearchThrottle.key("2001:db8:1:2::1") == SearchThrottle.key("2001:db8:1:2:abcd::"))
        #expect(SearchThrottle.key("2001:db8:1:2::1") != SearchThrottle.key("2001:db8:1:3::1"))
        #expect(SearchThrottle.key("::ffff:10.0.0.1") == "10.0.0.1")
        #expect(SearchThrottle.key("::ffff:10.0.0.1") != SearchThrottle.key("::ffff:10.0.0.2"))
        #expect(SearchThrottle.key("10.0.0.1") == "10.0.0.1")
    }
}
