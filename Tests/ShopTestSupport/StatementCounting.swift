import SQL
import ShopCore
import Synchronization

/// A `Database` that counts the statements run on its connections, so a test can pin how many
/// queries a use case costs (a list must not cost one query per row).
public final class CountingDatabase: Database {
    public let base: any Database
    private let count = Mutex((all: 0, held: 0, ending: 0))

    public init(_ base: any Database) {
        self.base = base
    }

    /// Statements run since the last `reset()`.
    public var statements: Int { count.withLock { $0.all } }

    /// Of `statements`, those that wait for their answer: on PostgreSQL each is a round trip (the
    /// others, `runLater` writes and the advisory locks, travel with the next one).
    public var answered: Int { count.withLock { $0.all - $0.held } }

    /// Of the answered statements, those sent as their transaction's last (`queryEnding`): on
    /// PostgreSQL the COMMIT travels with them, so the transaction costs no round trip of its own
    /// to commit.
    public var ending: Int { count.withLock { $0.ending } }

    public func reset() { count.withLock { $0 = (0, 0, 0) } }

    func noteStatement(held: Bool = false, ending: Bool = false) {
        count.withLock { $0.all += 1; if held { $0.held += 1 }; if ending { $0.ending += 1 } }
    }

    public var dialect: SQLDialect { base.dialect }

    /// The counting wrapper of one lent connection, able to COPY when the engine's is (PostgreSQL),
    /// so counted use cases take the same paths as uncounted ones.
    private func lend(_ connection: any SQLConnection) -> CountingConnection {
        connection is any SQLBulkCopying ? CountingCopyingConnection(connection, counter: self) : CountingConnection(connection, counter: self)
    }

    public func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try base.write { try body(lend($0)) }
    }

    public func write<T>(durability: Durability, _ body: (any SQLConnection) throws -> T) throws -> T {
        try base.write(durability: durability) { try body(lend($0)) }
    }

    public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try base.read { try body(lend($0)) }
    }

    public func readEach<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try base.readEach { try body(lend($0)) }
    }

    public var poolStatistics: [PoolStatistics] { base.poolStatistics }
}

/// One lent connection of a `CountingDatabase`: each statement counts once.
class CountingConnection: SQLConnection {
    fileprivate let base: any SQLConnection
    fileprivate let counter: CountingDatabase

    init(_ base: any SQLConnection, counter: CountingDatabase) {
        self.base = base
        self.counter = counter
    }

    var dialect: SQLDialect { base.dialect }

    func run(_ sql: SQL) throws -> Int {
        counter.noteStatement()
        return try base.run(sql)
    }

    func query(_ sql: SQL) throws -> [Row] {
        counter.noteStatement()
        return try base.query(sql)
    }

    func queryOne(_ sql: SQL) throws -> Row? {
        counter.noteStatement()
        return try base.queryOne(sql)
    }

    func execute(script: String) throws {
        counter.noteStatement()
        try base.execute(script: script)
    }

    func serialize(onKeys keys: [String]) throws {
        if base.dialect == .postgresql { counter.noteStatement(held: true) }
        try base.serialize(onKeys: keys)
    }

    func runLater(_ sql: SQL) throws {
        counter.noteStatement(held: true)
        try base.runLater(sql)
    }

    /// Each query counts; all but the first travel with it (one round trip on PostgreSQL).
    func queries(_ statements: [SQL]) throws -> [[Row]] {
        for index in statements.indices { counter.noteStatement(held: index > 0) }
        return try base.queries(statements)
    }

    /// One answered statement: the commit that may travel with it is not a statement of the use case.
    func queryEnding(_ sql: SQL) throws -> [Row] {
        counter.noteStatement(ending: true)
        return try base.queryEnding(sql)
    }

    func refreshStatistics(of tables: [String]) throws {
        try base.refreshStatistics(of: tables)
    }
}

/// A counted connection over one that can COPY: a copy counts as one statement.
final class CountingCopyingConnection: CountingConnection, SQLBulkCopying {
    func copy(into table: String, columns: [String], rows: [[SQLValue]]) throws -> Int {
        counter.noteStatement()
        return try (base as! any SQLBulkCopying).copy(into: table, columns: columns, rows: rows)
    }
}

extension TestShop {
    /// Another `Shop` over the same database whose statements are counted.
    public func counted() throws -> (shop: Shop, database: CountingDatabase) {
        let database = CountingDatabase(pool)
        let shop = try Shop(pool: database, search: self.shop.search, config: config, notifyURL: TestShop.notifyURL, clock: clock.clock, logger: .silent, migrator: shop.migrator,
                            codeSender: sender)
        database.reset()
        return (shop, database)
    }
}
