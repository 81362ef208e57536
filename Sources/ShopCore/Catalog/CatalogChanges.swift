import SQL

/// The catalogue's versions, and the only code that reads them. Triggers move them in the same
/// transaction as the change, so a version read from the database says whether a copy made
/// earlier, on this node or another, is still what the database holds.
///
/// Two counters, because they answer two questions and merging them would cost either way:
/// - `catalog_changes` (0015, 64 shards): anything a catalogue response shows moved. Since 0041
///   per-click counters do not move it: sales, favourites, and stock while it stays above zero
///   (a stock-out, a price, a title, a status always do), so an order rarely moves it and kept
///   pages outlive sales; they show those counters up to `CatalogController.countersMaxAge` old.
///   Kept responses (`version`, `version(of:)`).
/// - `catalog_version` (0008, text changes since 0013, once per transaction on PostgreSQL since
///   0018): which products a list or search can find moved. Orders do not move it, so list totals
///   and a search's tier counts (`indexVersion`), the costly part of a list, outlive every sale.
///   Keying those by `catalog_changes` would recount after each order; keying responses by
///   `catalog_version` would serve stale stock.
struct CatalogChanges {
    /// Counters in the table, one per `product_id % shards` (the migration's CHECK says the same).
    static let shards: Int64 = 64

    /// The counter of `product`'s shard.
    static func shard(of product: ProductID) -> Int64 {
        ((product.rawValue % shards) + shards) % shards
    }

    /// What a product page shows moved (its favourites count aside: a per-click counter, shown up
    /// to a few seconds old, see `CatalogController.countersMaxAge`): its own counter, shared with
    /// the ids ≡ it mod `shards`.
    func version(of product: ProductID, _ db: any SQLConnection) throws -> Int64 {
        try db.scalarInt("SELECT version FROM catalog_changes WHERE shard = \(Self.shard(of: product))") ?? 0
    }

    /// Anything in the catalogue moved: the sum of the counters (each only ever goes up).
    func version(_ db: any SQLConnection) throws -> Int64 {
        try db.scalarInt("SELECT CAST(SUM(version) AS BIGINT) FROM catalog_changes") ?? 0
    }

    /// The version of which products a list or search can find (`catalog_version`): what list
    /// totals and a search's counts are kept at. Sales and stock do not move it.
    func indexVersion(_ db: any SQLConnection) throws -> Int64 {
        try db.scalarInt("SELECT version FROM catalog_version WHERE id = 1") ?? 0
    }

    /// `version` and the search index's `catalog_version` (what a search's counts are kept at),
    /// in one statement: a kept search page is checked in one round trip.
    func versionAndIndexVersion(_ db: any SQLConnection) throws -> (catalog: Int64, index: Int64) {
        let row = try db.queryOne("""
            SELECT (SELECT CAST(SUM(version) AS BIGINT) FROM catalog_changes) AS catalog,
                   (SELECT version FROM catalog_version WHERE id = 1) AS search_index
            """)
        return (try row?.decode("catalog", as: Int64?.self) ?? 0, try row?.decode("search_index", as: Int64?.self) ?? 0)
    }

    /// Every counter and the search index's version, in one statement: what
    /// `PushedCatalogVersions` holds.
    func snapshot(_ db: any SQLConnection) throws -> CatalogVersions {
        var shards = [Int64](repeating: 0, count: Int(Self.shards))
        var index: Int64 = 0
        for row in try db.query("""
            SELECT shard, version FROM catalog_changes
            UNION ALL SELECT \(Self.shards) AS shard, version FROM catalog_version WHERE id = 1
            """) {
            let shard: Int64 = try row.decode("shard")
            let version: Int64 = try row.decode("version")
            if shard == Self.shards { index = version } else { shards[Int(shard)] = version }
        }
        return CatalogVersions(shards: shards, index: index)
    }
}

/// A catalogue read by a caller that may already hold the answer at some version.
public enum Versioned<Value: Sendable>: Sendable {
    /// Nothing the read covers changed since the caller's version: its copy is current.
    case unchanged
    /// The answer as the database holds it now, read in the same transaction as `version`: the
    /// version to hold it at (a search's page too; it is recorded whether or not it is read again).
    case current(Value, version: Int64)
}
