import Foundation
import HTTP
import Localization
import SQL
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// A request that cannot reach the database is 503 `database_unavailable` with `Retry-After`, never 500.
@Suite("API: database unavailable")
struct DatabaseUnavailableTests {
    struct EngineError: SQLError {
        let kind: SQLErrorKind
        var description: String { "engine error \(kind)" }
    }

    /// A database whose server is gone: every transaction fails as a lost connection.
    struct UnreachableDatabase: Database {
        let dialect: SQLDialect
        func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T { throw EngineError(kind: .connectionLost) }
        func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T { throw EngineError(kind: .connectionLost) }
    }

    @Test func aLostConnectionMapsTo503WithRetryAfter() throws {
        let mapped = try #require(ErrorMapping.map(EngineError(kind: .connectionLost)))
        #expect(mapped.status == .serviceUnavailable)
        #expect(mapped.code == "database_unavailable")
        #expect(mapped.retryAfter == 1)
        #expect(mapped.response(in: .default).headers["Retry-After"] == "1")
    }

    @Test func aFullConnectionPoolMapsTo503WithRetryAfter() throws {
        let mapped = try #require(ErrorMapping.map(PoolExhaustedError(pool: "primary", waitedSeconds: 5)))
        #expect(mapped.status == .serviceUnavailable)
        #expect(mapped.code == "database_busy")
        #expect(mapped.response(in: .default).headers["Retry-After"] == "1")
    }

    @Test func otherDatabaseErrorsAreNotMappedToUnavailable() {
        for kind in [SQLErrorKind.transient, .other, .uniqueViolation] {
            #expect(ErrorMapping.map(EngineError(kind: kind))?.code != "database_unavailable", "\(kind)")
        }
    }

    @Test func theAPIAnswers503WhenTheDatabaseCannotBeReached() throws {
        let app = try TestAPI()
        let shop = try Shop(pool: UnreachableDatabase(dialect: app.shop.pool.dialect), search: app.shop.search, config: app.testShop.config,
                            notifyURL: TestShop.notifyURL,
                            logger: .silent, migrator: app.shop.migrator, codeSender: app.sender)
        let api = ShopAPI(shop: shop)
        let products = try api.responder(Request(method: "GET", path: "/api/v1/products"), Context())
        #expect(products.status.code == 503)
        #expect(products.headers["Retry-After"] == "1")
        let body = try JSON.decoder().decode(ErrorResponse.self, from: Data(products.body))
        #expect(body.error.code == "database_unavailable")
        let ready = try api.responder(Request(method: "GET", path: "/readyz"), Context())
        #expect(ready.status.code == 503)
    }
}
