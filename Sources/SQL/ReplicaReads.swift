/// A primary and a read-only streaming standby seen as one database: writes go to the primary,
/// reads to the standby, and a read the standby cannot serve (it is down, restarting, or its
/// pool is full) runs on the primary instead. A standby lags the primary by a little, so give
/// this only to reads that may be a moment old (the catalogue, public social pages), never to a
/// read of what the same user just wrote.
public struct ReplicaReads: Database {
    public let primary: any Database
    public let replica: any Database

    public init(primary: any Database, replica: any Database) {
        self.primary = primary
        self.replica = replica
    }

    public var dialect: SQLDialect { primary.dialect }

    public func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try primary.write(body)
    }

    public func write<T>(durability: Durability, _ body: (any SQLConnection) throws -> T) throws -> T {
        try primary.write(durability: durability, body)
    }

    public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        do {
            return try replica.read(body)
        } catch let error as any SQLError where error.kind == .connectionLost || error.kind == .poolExhausted {
            return try primary.read(body)
        }
    }

    public var poolStatistics: [PoolStatistics] {
        primary.poolStatistics + replica.poolStatistics.map { stats in
            var stats = stats
            stats.name = "replica"
            return stats
        }
    }
}
