import Foundation
import SQL
import Synchronization
import Testing
@testable import ShopCore
import ShopTestSupport

/// With `database.read_url`, the catalogue and signed-out social pages read from the standby;
/// what a user just wrote (their cart, orders, their own likes and follows) is read from the primary.
@Suite("Reads that may lag go to the standby")
struct ReplicaRoutingTests {
    /// The test database under another name, counting the reads that reach it.
    final class CountingStandby: Database {
        let base: any Database
        let reads = Mutex(0)
        init(_ base: any Database) { self.base = base }
        var dialect: SQLDialect { base.dialect }
        func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
            Issue.record("a write reached the standby")
            return try base.write(body)
        }
        func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
            reads.withLock { $0 += 1 }
            return try base.read(body)
        }
        var count: Int { reads.withLock { $0 } }
    }

    @Test func catalogueAndSignedOutReadsUseTheStandbyAndAUsersOwnReadsThePrimary() throws {
        let fixture = try TestShop()
        let skus = try fixture.cartSeed([CartCatalogRow(product: "P1", sku: "S1")])
        let session = try fixture.register("13800000001")
        let standby = CountingStandby(fixture.shop.pool)
        let shop = try Shop(pool: fixture.shop.pool, replica: standby, search: fixture.shop.search, config: fixture.config, notifyURL: TestShop.notifyURL, clock: fixture.clock.clock,
                            logger: .silent, migrator: fixture.shop.migrator, codeSender: fixture.sender)

        let product = try #require(try shop.catalog.products(ProductQuery(page: try PageRequest()), unlessAt: nil).current.items.first)
        _ = try shop.catalog.product(product.id)
        _ = try shop.catalog.categoryTree(unlessAt: nil).current
        _ = try shop.articles.top(viewer: nil)
        let publicReads = standby.count
        #expect(publicReads >= 4)

        let sku = try #require(skus["S1"])
        _ = try shop.carts.add(sku, quantity: 1, for: session.user.id)
        _ = try shop.carts.cart(of: session.user.id)
        _ = try shop.addresses.list(for: session.user.id)
        _ = try shop.articles.top(viewer: session.user.id)
        _ = try shop.social.profile(session.user.id, viewer: session.user.id)
        #expect(standby.count == publicReads, "a signed-in user's own data was read from the standby")
    }

    @Test func withoutAStandbyEverythingReadsThePrimary() throws {
        let fixture = try TestShop()
        #expect(fixture.shop.reads as AnyObject === fixture.shop.pool as AnyObject)
    }
}
