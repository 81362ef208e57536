import Foundation
import Images
import PostgreSQL
import PostgreSQLSearch
import SQL
import SQLite
import ShopAPI
import SQLiteSearch
import ShopCore
import ShopMigrations

/// A `Shop` over a fresh temp-file database with every migration of the repository applied,
/// a manual clock, a silent log, a capturing code sender and cheap argon2 costs.
public final class TestShop: @unchecked Sendable {
    public static let pepper = "test-pepper-0123456789"
    public static let password = "flower123"
    /// The payment webhook addresses the real composition root gives the shop.
    public static let notifyURL: PaymentNotifyURL = PaymentWebhooks.notifyURL

    public let directory: URL
    public let clock: ManualClock
    public let sender: CapturingCodeSender
    public let config: Config
    public let shop: Shop
    public let processesImages: Bool

    public var accounts: AccountService { shop.accounts }
    public var verification: VerificationService { shop.verification }
    public var pool: any Database { shop.pool }

    /// `directoryPrefix` names the temp directory (`<prefix>-<uuid>`) the database lives in.
    /// `processesImages`: the shop re-encodes pictures with libvips (uploads work, imports re-encode
    /// photos); without it imports copy files as they are.
    public init(directoryPrefix: String = "shopcore-tests", processesImages: Bool = false,
                _ configure: (inout Config) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(directoryPrefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var config = Config()
        config.database.path = directory.appendingPathComponent("shop.sqlite").path
        if let server = TestDatabase.postgresURL {
            let schema = TestDatabase.newSchemaName()
            try TestDatabase.createSchema(schema, on: server)
            config.database.url = TestDatabase.url(server, searchPath: schema)
            config.database.poolSize = 4
        }
        config.database.readers = 2
        config.media.path = directory.appendingPathComponent("media").path
        config.auth.pepper = Self.pepper
        config.auth.argon2MemoryKiB = 1_024
        config.auth.argon2Iterations = 1
        configure(&config)
        self.config = config
        clock = ManualClock()
        sender = CapturingCodeSender()
        self.processesImages = processesImages
        shop = try Self.openShop(config, clock: clock, sender: sender, processesImages: processesImages)
    }

    deinit {
        // (A PostgreSQL schema outlives its TestShop: a test may keep using a service after
        // dropping the fixture, as it keeps an unlinked SQLite file open. The next run clears them.)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Another `Shop` over the same database (e.g. with raised argon2 costs), sharing clock and sender.
    public func reopened(_ configure: (inout Config) -> Void) throws -> Shop {
        var changed = config
        configure(&changed)
        return try Self.openShop(changed, clock: clock, sender: sender, processesImages: processesImages)
    }

    private static func openShop(_ config: Config, clock: ManualClock, sender: CapturingCodeSender,
                                 processesImages: Bool) throws -> Shop {
        let pool: any Database
        let migrator: Migrator
        let search: any SearchEngine
        switch config.databaseLocation {
        case .sqlite(let path):
            pool = try DatabasePool(path: path, readers: config.database.readers, options: ConnectionOptions(synchronous: .normal))
            migrator = try Migrator(files: ShopMigrations.sqlite)
            search = SQLiteSearch()
        case .postgresql(let url):
            pool = try PostgreSQL.Pool(url: url, size: config.database.poolSize)
            migrator = try Migrator(files: ShopMigrations.postgresql)
            search = PostgreSQLSearch()
        }
        try migrator.migrate(pool)
        return try Shop(pool: pool, search: search, config: config, notifyURL: TestShop.notifyURL, clock: clock.clock, logger: .silent,
                        migrator: migrator, codeSender: sender, images: processesImages ? try VipsImageProcessor() : nil)
    }

    /// Asks for a code and answers the digits that were sent.
    public func sendCode(to phone: String, for purpose: CodePurpose, from clientIP: String = "10.0.0.1") throws -> String {
        _ = try verification.requestCode(phone: phone, purpose: purpose, clientIP: clientIP)
        guard let code = sender.lastCode(to: (try? PhoneNumber.normalize(phone)) ?? phone, for: purpose) else {
            throw FixtureError("no \(purpose.rawValue) code was sent to \(phone)")
        }
        return code
    }

    /// Registers `phone` with the plain password and answers the session.
    @discardableResult
    public func register(_ phone: String, password: String = TestShop.password, nickname: String? = nil,
                         from clientIP: String = "10.0.0.1") throws -> Session {
        let code = try sendCode(to: phone, for: .register, from: clientIP)
        return try accounts.register(phone: phone, code: code,
                                     credential: Credential(passwordMD5: nil, password: password), nickname: nickname, clientIP: clientIP)
    }

    public func login(_ phone: String, password: String = TestShop.password, from clientIP: String = "10.0.0.1") throws -> Session {
        try accounts.login(phone: phone, credential: Credential(passwordMD5: nil, password: password), clientIP: clientIP)
    }

    /// The stored password hash of `phone`.
    public func storedPasswordHash(_ phone: String) throws -> String? {
        try pool.read { db in try db.scalar("SELECT password_hash FROM users WHERE phone = \(phone)", as: String.self) }
    }

    /// Every TEXT value in every table of the database.
    public func allStoredText() throws -> [(table: String, column: String, value: String)] {
        try pool.read { db in
            var found: [(String, String, String)] = []
            for table in try TestDatabase.tables(db) {
                let columns = try TestDatabase.columns(of: table, db)
                for row in try db.query("SELECT * FROM \(SQLIdentifier(table))") {
                    for column in columns {
                        if case .text(let value) = row[column] { found.append((table, column, value)) }
                    }
                }
            }
            return found
        }
    }

    /// The `sales` of the product a SKU belongs to (-1 when there is no such SKU).
    public func orderSales(of sku: SKUID) throws -> Int64 {
        try pool.read { db in
            try db.scalarInt("SELECT p.sales FROM products p JOIN skus s ON s.product_id = p.id WHERE s.id = \(sku)")
        } ?? -1
    }
}

/// A six-digit code that is surely not `code`.
public func wrongCode(for code: String) -> String {
    String(format: "%06d", ((Int(code) ?? 0) + 1) % 1_000_000)
}
