import Bulkheads
import SQL
import Testing
@testable import ShopCore
import ShopTestSupport

/// `/readyz`'s check: a database that answers is ready; one whose pool is busy on a request thread
/// moves the check to the database bulkhead instead of reporting "not ready".
@Suite("Readiness")
struct ReadinessTests {
    /// The test database, except that every connection is "busy": reads ask to move, as a full
    /// pool does on a request thread.
    final class BusyPool: Database {
        let base: any Database
        init(_ base: any Database) { self.base = base }
        var dialect: SQLDialect { base.dialect }
        func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T { try base.write(body) }
        func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T { throw OffloadRequest(bulkhead: .database) }
    }

    @Test func aMigratedDatabaseThatAnswersIsReady() throws {
        #expect(try TestShop().shop.isReady())
    }

    @Test func aBusyPoolMovesTheCheckRatherThanFailingIt() throws {
        let fixture = try TestShop()
        let shop = try Shop(pool: BusyPool(fixture.shop.pool), search: fixture.shop.search, config: fixture.config,
                            notifyURL: TestShop.notifyURL, clock: fixture.clock.clock, logger: .silent,
                            migrator: fixture.shop.migrator, codeSender: fixture.sender)
        #expect(throws: OffloadRequest(bulkhead: .database)) { try shop.isReady() }
    }
}
