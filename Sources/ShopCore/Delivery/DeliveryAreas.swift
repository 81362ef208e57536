import SQL

/// Which zone serves an address, inside the caller's transaction (checkout, the cart's preview, the
/// quote). An address with a `region_code` is found by it; one typed by hand by its names looked up
/// in the directory (`RegionDirectory.code(province:city:district:)`). The division and those above
/// it are looked for among the zones' codes, most specific first. No zones: everyone is served
/// (free); zones, and none holds the address (or its names match no division): `outsideArea`.
struct DeliveryAreas: Sendable {
    let regions: RegionDirectory
    private let store = DeliveryZoneStore()

    init(regions: RegionDirectory) { self.regions = regions }

    func coverage(of address: Address, _ db: any SQLConnection) throws -> DeliveryCoverage {
        let query = coverageQuery(of: address)
        return try coverage(query, rows: db.query(query.sql))
    }

    /// `coverage` in two halves, so checkout can send its query with the stock it takes in one
    /// round trip: the query for an address (and the divisions it looks for) ...
    struct CoverageQuery {
        let sql: SQL
        let path: [RegionCode]
    }

    func coverageQuery(of address: Address) -> CoverageQuery {
        coverageQuery(listingAny: path(of: address))
    }

    /// The query for the zone listing one of `path` (an address's `path(of:)`).
    func coverageQuery(listingAny path: [RegionCode]) -> CoverageQuery {
        CoverageQuery(sql: store.servingQuery(listingAny: path), path: path)
    }

    /// The division of `address` and those above it, most specific first (empty: its names match
    /// no division): the codes a zone may list to serve it.
    func path(of address: Address) -> [RegionCode] {
        let code = address.regionCode.flatMap { regions.region($0) != nil ? $0 : nil }
            ?? regions.code(province: address.province, city: address.city, district: address.district)
        return code.map { regions.path(to: $0).reversed().map(\.code) } ?? []
    }

    /// ... and the coverage read from its rows.
    func coverage(_ query: CoverageQuery, rows: [Row]) throws -> DeliveryCoverage {
        let serving = try store.serving(listingAny: query.path, rows: rows)
        if let zone = serving.zone { return .zone(zone) }
        guard !serving.anyZone else { throw DeliveryZoneError.outsideArea }
        return .everywhere
    }
}
