import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("database.url chooses the engine")
struct DatabaseLocationTests {
    @Test func theDefaultIsTheSQLiteFileAtDatabasePath() throws {
        var config = Config()
        #expect(config.databaseLocation == .sqlite(path: "data/shop.sqlite"))
        config.database.path = "/var/lib/shop/shop.sqlite"
        #expect(config.databaseLocation == .sqlite(path: "/var/lib/shop/shop.sqlite"))
    }

    @Test func aURLNamesSQLiteOrPostgreSQL() throws {
        #expect(DatabaseLocation(url: "sqlite:/tmp/a.sqlite") == .sqlite(path: "/tmp/a.sqlite"))
        #expect(DatabaseLocation(url: "postgresql://shop@127.0.0.1:5432/shop?sslmode=disable")
                == .postgresql(url: "postgresql://shop@127.0.0.1:5432/shop?sslmode=disable"))
        #expect(DatabaseLocation(url: "postgres://h/db") == .postgresql(url: "postgres://h/db"))
        #expect(DatabaseLocation(url: "mysql://h/db") == nil)
        #expect(DatabaseLocation(url: "sqlite:") == nil)
    }

    @Test func aBadURLStopsTheLoadNamingTheKey() throws {
        let error = #expect(throws: ConfigError.self) {
            try Config.load(path: nil, environment: ["SHOP_DATABASE_URL": "mysql://localhost/shop"])
        }
        #expect(error?.key == "database.url")
        let config = try Config.load(path: nil, environment: ["SHOP_DATABASE_URL": "postgresql://shop@db/shop",
                                                               "SHOP_DATABASE_POOL_SIZE": "25"])
        #expect(config.databaseLocation == .postgresql(url: "postgresql://shop@db/shop"))
        #expect(config.database.poolSize == 25)
    }

    @Test func logsNeverShowThePassword() {
        #expect(DatabaseLocation.postgresql(url: "postgresql://shop:s3cret@db:5432/shop").redacted
                == "postgresql://shop:***@db:5432/shop")
        #expect(DatabaseLocation.postgresql(url: "postgresql://shop@db/shop").redacted == "postgresql://shop@db/shop")
    }

    @Test func aReadURLNamesAPostgreSQLStandbyOfAPostgreSQLPrimary() throws {
        #expect(try Config().readReplicaURL() == nil)
        let config = try Config.load(path: nil, environment: ["SHOP_DATABASE_URL": "postgresql://shop@db/shop",
                                                               "SHOP_DATABASE_READ_URL": "postgresql://shop@standby/shop"])
        #expect(try config.readReplicaURL() == "postgresql://shop@standby/shop")

        let sqlitePrimary = try Config.load(path: nil, environment: ["SHOP_DATABASE_READ_URL": "postgresql://shop@standby/shop"])
        let noPrimary = #expect(throws: ConfigError.self) { try sqlitePrimary.readReplicaURL() }
        #expect(noPrimary?.key == "database.read_url")

        let sqliteStandby = try Config.load(path: nil, environment: ["SHOP_DATABASE_URL": "postgresql://shop@db/shop",
                                                                      "SHOP_DATABASE_READ_URL": "sqlite:/tmp/copy.sqlite"])
        let notPostgreSQL = #expect(throws: ConfigError.self) { try sqliteStandby.readReplicaURL() }
        #expect(notPostgreSQL?.key == "database.read_url")

        let bad = #expect(throws: ConfigError.self) {
            try Config.load(path: nil, environment: ["SHOP_DATABASE_READ_URL": "mysql://standby/shop"])
        }
        #expect(bad?.key == "database.read_url")
    }
}
