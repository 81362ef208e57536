import Synchronization

/// How many write transactions this process has finished on a database (committed or not): a
/// number that moves after each one. A cache fed from elsewhere (PostgreSQL notifications, a
/// poll) compares it with the number it saw when it last read: if it moved, this node may have
/// just changed what the cache holds, and the cache reads again before answering, so a node sees
/// its own writes at once however late the notification of them arrives.
public final class WriteGeneration: Sendable {
    private let count = Atomic<UInt64>(0)

    public init() {}

    /// The writes finished so far.
    public var current: UInt64 { count.load(ordering: .acquiring) }

    func advance() {
        count.add(1, ordering: .releasing)
    }
}

/// A database that counts its writes in a `WriteGeneration` (after each ends, whatever its
/// outcome: a transaction that failed after a statement may still have moved nothing, and a
/// needless re-read costs one statement); reads pass through untouched.
public final class WriteCountingDatabase: Database {
    public let base: any Database
    public let generation: WriteGeneration

    public init(_ base: any Database, generation: WriteGeneration) {
        self.base = base
        self.generation = generation
    }

    public var dialect: SQLDialect { base.dialect }

    public func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        defer { generation.advance() }
        return try base.write(body)
    }

    public func write<T>(durability: Durability, _ body: (any SQLConnection) throws -> T) throws -> T {
        defer { generation.advance() }
        return try base.write(durability: durability, body)
    }

    public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try base.read(body)
    }

    public func readEach<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try base.readEach(body)
    }

    public var poolStatistics: [PoolStatistics] { base.poolStatistics }
}
