import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Synchronization
import Testing

/// Monotonic nanoseconds moved by hand.
private final class Ticks: Sendable {
    private let value = Atomic<UInt64>(1_000_000_000)
    var now: UInt64 { value.load(ordering: .relaxed) }
    func advance(milliseconds: UInt64) { value.add(milliseconds * 1_000_000, ordering: .relaxed) }
}

/// A shop with one product, and a `CatalogService` fed by versions in memory (as on a PostgreSQL
/// node under `shop serve`, here on either engine).
private struct FedCatalog {
    let shop: TestShop
    let ticks = Ticks()
    let writes = WriteGeneration()
    let versions: PushedCatalogVersions
    let catalog: CatalogService
    let product: ProductID

    init() throws {
        shop = try TestShop()
        try shop.importCatalogLines([CatalogLine(product: "P1", sku: "P1-S1", title: "红玫瑰花束", price: "129.00", stock: "10")])
        versions = PushedCatalogVersions(pool: shop.pool, writes: writes, now: { [ticks] in ticks.now })
        catalog = CatalogService(pool: shop.pool, search: TestDatabase.search, clock: shop.clock.clock, logger: Logger(minimumLevel: .error),
                                 settings: shop.config.search, versions: versions)
        product = try #require(try shop.pool.read { db in try db.scalar("SELECT id FROM products WHERE code = 'P1'", as: ProductID.self) })
    }

    /// A price change this node's counted writes do not see (another node's).
    func reprice(_ cents: Int64) throws {
        try shop.pool.write { db in _ = try db.run("UPDATE skus SET price_cents = \(cents) WHERE code = 'P1-S1'") }
    }

    /// The page and the version it was read at, holding none.
    func page() throws -> (detail: ProductDetail, version: Int64) {
        guard case .current(let detail, let version) = try catalog.product(product, unlessAt: nil) else { throw UnexpectedlyUnchanged() }
        return (detail, version)
    }
}

@Suite("Catalogue versions in memory: kept answers checked without the database, never older than a second")
struct CatalogVersionsTests {
    @Test func withoutAReadingTheFeedVouchesForNothingAndEveryCheckAsksTheDatabase() throws {
        let fed = try FedCatalog()
        #expect(fed.versions.current() == nil)
        let (_, version) = try fed.page()
        try fed.reprice(9_900)
        guard case .current(let detail, _) = try fed.catalog.product(fed.product, unlessAt: version) else {
            Issue.record("a change was missed without versions in memory")
            return
        }
        #expect(detail.summary.priceCents == 9_900)
    }

    @Test func aKeptPageIsCheckedAgainstTheVersionsInMemoryUntilTheyAreASecondOld() throws {
        let fed = try FedCatalog()
        try fed.versions.refresh()
        let (before, version) = try fed.page()
        #expect(before.summary.priceCents == 12_900)

        // Another node changes the price: until this node is told (a refresh), the kept page is
        // what it answers: proof that the check read no version from the database.
        try fed.reprice(9_900)
        fed.ticks.advance(milliseconds: 900)
        guard case .unchanged = try fed.catalog.product(fed.product, unlessAt: version) else {
            Issue.record("the check went to the database although the versions in memory were fresh")
            return
        }
        // Past `maxStaleness` without a refresh the versions are not trusted: the database is asked.
        fed.ticks.advance(milliseconds: 200)
        #expect(fed.versions.current() == nil)
        guard case .current(let after, _) = try fed.catalog.product(fed.product, unlessAt: version) else {
            Issue.record("a page older than the staleness bound was served")
            return
        }
        #expect(after.summary.priceCents == 9_900)
    }

    @Test func aRefreshAfterAChangeMakesEveryKeptAnswerOfTheCatalogueReadAgain() throws {
        let fed = try FedCatalog()
        try fed.versions.refresh()
        let (_, version) = try fed.page()
        guard case .current(_, let listVersion) = try fed.catalog.products(ProductQuery(page: try PageRequest()), unlessAt: nil),
              case .current(_, let treeVersion) = try fed.catalog.categoryTree(unlessAt: nil) else {
            Issue.record("a read holding nothing answered unchanged")
            return
        }
        try fed.reprice(9_900)
        try fed.versions.refresh()
        if case .unchanged = try fed.catalog.product(fed.product, unlessAt: version) { Issue.record("the page") }
        if case .unchanged = try fed.catalog.products(ProductQuery(page: try PageRequest()), unlessAt: listVersion) { Issue.record("the list") }
        if case .unchanged = try fed.catalog.categoryTree(unlessAt: treeVersion) { Issue.record("the tree") }
        // Unchanged versions keep every kept answer, searches included.
        let search = ProductQuery(text: "玫瑰", page: try PageRequest())
        guard case .current(_, let searchVersion) = try fed.catalog.products(search, unlessAt: nil) else { throw UnexpectedlyUnchanged() }
        guard case .unchanged = try fed.catalog.products(search, unlessAt: searchVersion) else {
            Issue.record("an unchanged search was read again")
            return
        }
    }

    @Test func aNodeSeesItsOwnWritesAtOnceWhateverItsFeedWasLastTold() throws {
        let fed = try FedCatalog()
        try fed.versions.refresh()
        let (_, version) = try fed.page()
        // This node's write is counted: the next check reads the versions again first.
        let counted = WriteCountingDatabase(fed.shop.pool, generation: fed.writes)
        try counted.write { db in _ = try db.run("UPDATE skus SET price_cents = 8800 WHERE code = 'P1-S1'") }
        guard case .current(let detail, _) = try fed.catalog.product(fed.product, unlessAt: version) else {
            Issue.record("this node's own change was not seen at once")
            return
        }
        #expect(detail.summary.priceCents == 8_800)
        #expect(fed.versions.current() != nil, "and the versions read again are held")
    }

    @Test func aRefreshHoldsWhatItReadAndAProductsVersionMovesWithItsShard() throws {
        let fed = try FedCatalog()
        let first = try fed.versions.refresh()
        try fed.reprice(9_900)
        fed.ticks.advance(milliseconds: 10)
        let second = try fed.versions.refresh()
        #expect(second.catalog > first.catalog)
        #expect(fed.versions.current() == second)
        #expect(second.of(fed.product) > first.of(fed.product))
    }
}
