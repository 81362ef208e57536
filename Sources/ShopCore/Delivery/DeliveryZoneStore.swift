import SQL

/// SQL of `delivery_zones` and `delivery_zone_regions` (migration 0035).
struct DeliveryZoneStore {
    /// Every zone in the order it was sent, each with its codes.
    func all(_ db: any SQLConnection) throws -> [DeliveryZone] {
        var codes: [Int64: [RegionCode]] = [:]
        for row in try db.query("SELECT zone_id, region_code FROM delivery_zone_regions ORDER BY region_code") {
            codes[try row.decode("zone_id"), default: []].append(try row.decode("region_code"))
        }
        return try db.query("""
            SELECT id, name, fee_cents, free_over_cents, same_day FROM delivery_zones ORDER BY ordinal
            """).map { row in try Self.zone(row, codes: codes[try row.decode("id")] ?? []) }
    }

    /// Replaces every zone with `zones` (already validated as a whole).
    func replace(with zones: [DeliveryZone], at now: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM delivery_zone_regions")
        try db.run("DELETE FROM delivery_zones")
        for (ordinal, zone) in zones.enumerated() {
            let id: Int64 = try db.insert("""
                INSERT INTO delivery_zones (ordinal, name, fee_cents, free_over_cents, same_day, created_at)
                VALUES (\(ordinal + 1), \(zone.name), \(zone.feeCents), \(zone.freeOverCents), \(zone.sameDay ? 1 : 0), \(now))
                """)
            for code in zone.regionCodes {
                try db.run("INSERT INTO delivery_zone_regions (region_code, zone_id) VALUES (\(code), \(id))")
            }
        }
    }

    /// The query for the zone listing one of `codes` (a division and those above it, most specific
    /// first; the most specific listed code wins, though the rules let at most one zone hold any of
    /// them), and whether the shop has any zone at all (none: every address is served). One query:
    /// checkout asks both, and sends it with its stock (`SQLConnection.queries`).
    func servingQuery(listingAny codes: [RegionCode]) -> SQL {
        let listed: SQL = codes.isEmpty ? "1 = 0" : "r.region_code IN (\(codes.map { code -> SQL in "\(code)" }.joined(separator: ", ")))"
        return """
            SELECT CASE WHEN EXISTS (SELECT 1 FROM delivery_zones) THEN 1 ELSE 0 END AS any_zone,
                   m.region_code, m.name, m.fee_cents, m.free_over_cents, m.same_day
            FROM (SELECT 1 AS one) AS start
            LEFT JOIN (SELECT r.region_code, z.name, z.fee_cents, z.free_over_cents, z.same_day
                       FROM delivery_zone_regions r JOIN delivery_zones z ON z.id = r.zone_id
                       WHERE \(listed)) AS m ON 1 = 1
            """
    }

    /// The zone and whether any zone exists, read from the rows of `servingQuery`.
    func serving(listingAny codes: [RegionCode], rows: [Row]) throws -> (zone: ServingZone?, anyZone: Bool) {
        var anyZone = false
        var byCode: [RegionCode: ServingZone] = [:]
        for row in rows {
            anyZone = try row.decode("any_zone")
            guard let code = try row.decode("region_code", as: RegionCode?.self) else { continue }
            byCode[code] = ServingZone(name: try row.decode("name"), regionCode: code, feeCents: try row.decode("fee_cents"),
                                       freeOverCents: try row.decode("free_over_cents"), sameDay: try row.decode("same_day"))
        }
        return (codes.lazy.compactMap { byCode[$0] }.first, anyZone)
    }

    static func zone(_ row: Row, codes: [RegionCode]) throws -> DeliveryZone {
        DeliveryZone(name: try row.decode("name"), regionCodes: codes, feeCents: try row.decode("fee_cents"),
                     freeOverCents: try row.decode("free_over_cents"), sameDay: try row.decode("same_day"))
    }
}
