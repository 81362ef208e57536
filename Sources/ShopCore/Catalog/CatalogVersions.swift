import Dispatch
import SQL
import Synchronization

/// The catalogue's versions at one moment (see `CatalogChanges`): the 64 change counters and the
/// search index's version, read in one statement.
public struct CatalogVersions: Sendable, Equatable {
    /// `catalog_changes.version` by shard.
    let shards: [Int64]
    /// `catalog_version` (which products a list or search can find).
    let index: Int64

    init(shards: [Int64], index: Int64) {
        precondition(shards.count == Int(CatalogChanges.shards), "one version per shard")
        self.shards = shards
        self.index = index
    }

    /// What `CatalogChanges.version(_:)` reads: anything in the catalogue moved.
    var catalog: Int64 { shards.reduce(0, +) }

    /// What `CatalogChanges.version(of:_:)` reads for a product page.
    func of(_ product: ProductID) -> Int64 {
        shards[Int(CatalogChanges.shard(of: product))]
    }
}

/// The catalogue's versions held in memory, so a node checks a kept catalogue answer without a
/// statement. Something that learns the versions moved calls `refresh` (on PostgreSQL, `shop serve`
/// listens for the notification the change counters' trigger sends at commit, and refreshes on a
/// heartbeat besides); a reader takes them through `current`:
///
/// - versions read more than `maxStaleness` ago are not answered (nil: the reader asks the
///   database itself, as it does without this feed), so nothing kept is served more than that
///   after a change committed anywhere, even while notifications are lost;
/// - once this process has written since they were read (`WriteGeneration`), they are read again
///   first, so a node always sees its own writes at once.
public final class PushedCatalogVersions: Sendable {
    /// The longest a kept catalogue answer may be served after a change elsewhere (documented in
    /// README's notes for clients and in openapi.json's catalogue routes).
    public static let maxStaleness: Duration = .seconds(1)
    /// The PostgreSQL channel the change counters' trigger notifies at the commit of any change
    /// (migration 0041).
    public static let channel = "shop_catalog"
    /// How often a node reads the versions when told nothing: well inside `maxStaleness`, so a
    /// lost notification or a dropped listening connection only delays a change, and a node serves
    /// kept answers without a statement as long as the database answers.
    public static let heartbeatMilliseconds: Int32 = 250

    private struct Held {
        let versions: CatalogVersions
        /// When the statement that read them began (monotonic nanoseconds).
        let readAt: UInt64
        /// This process's writes finished before that statement began.
        let writes: UInt64
    }

    private let pool: any Database
    private let writes: WriteGeneration
    private let maxAgeNanoseconds: UInt64
    private let now: @Sendable () -> UInt64
    private let held = Mutex<Held?>(nil)
    private let refreshes = Atomic<UInt64>(0)

    /// `pool` is where the catalogue is read (the standby's reads when there is one: versions
    /// and pages then come from the same place); `writes` counts this process's writes to it.
    public init(pool: any Database, writes: WriteGeneration, maxStaleness: Duration = PushedCatalogVersions.maxStaleness,
                now: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.pool = pool
        self.writes = writes
        let (seconds, attoseconds) = maxStaleness.components
        maxAgeNanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        self.now = now
    }

    /// Reads the versions now (one statement) and holds them.
    @discardableResult
    public func refresh() throws -> CatalogVersions {
        let writesBefore = writes.current
        let startedAt = now()
        let versions = try pool.readEach { try CatalogChanges().snapshot($0) }
        refreshes.add(1, ordering: .relaxed)
        held.withLock { held in
            // A refresh that began earlier may finish later: keep the newer reading.
            if let current = held, current.readAt > startedAt { return }
            held = Held(versions: versions, readAt: startedAt, writes: writesBefore)
        }
        return versions
    }

    /// Seconds since the versions held were read (nil before the first reading): what an operator
    /// watches, since past `maxStaleness` every kept answer costs a statement again.
    public var ageSeconds: Double? {
        held.withLock { $0 }.map { Double(now() &- $0.readAt) / 1e9 }
    }

    /// Readings of the versions so far (notifications, heartbeats, after this node's writes).
    public var readings: UInt64 { refreshes.load(ordering: .relaxed) }

    /// The versions, if they can be vouched for: read within `maxStaleness`, and read again
    /// first if this process wrote since. Nil when they are too old or cannot be read (the caller
    /// asks the database).
    func current() -> CatalogVersions? {
        guard let held = held.withLock({ $0 }) else { return nil }
        let age = now() &- held.readAt
        guard age <= maxAgeNanoseconds else { return nil }
        guard writes.current == held.writes else { return try? refresh() }
        return held.versions
    }
}
