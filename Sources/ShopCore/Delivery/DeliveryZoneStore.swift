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

    /// Whether the shop has any zone (none: every address is served).
    func any(_ db: any SQLConnection) throws -> Bool {
        try db.queryOne("SELECT id FROM delivery_zones LIMIT 1") != nil
    }

    /// The zone listing one of `codes` (a division and those above it, most specific first); the
    /// most specific listed code wins, though the rules let at most one zone hold any of them.
    func zone(listingAny codes: [RegionCode], _ db: any SQLConnection) throws -> ServingZone? {
        guard !codes.isEmpty else { return nil }
        let list = codes.map { code -> SQL in "\(code)" }.joined(separator: ", ")
        var byCode: [RegionCode: ServingZone] = [:]
        for row in try db.query("""
            SELECT r.region_code, z.name, z.fee_cents, z.free_over_cents, z.same_day
            FROM delivery_zone_regions r JOIN delivery_zones z ON z.id = r.zone_id
            WHERE r.region_code IN (\(list))
            """) {
            let code: RegionCode = try row.decode("region_code")
            byCode[code] = ServingZone(name: try row.decode("name"), regionCode: code, feeCents: try row.decode("fee_cents"),
                                       freeOverCents: try row.decode("free_over_cents"), sameDay: try row.decode("same_day"))
        }
        return codes.lazy.compactMap { byCode[$0] }.first
    }

    static func zone(_ row: Row, codes: [RegionCode]) throws -> DeliveryZone {
        DeliveryZone(name: try row.decode("name"), regionCodes: codes, feeCents: try row.decode("fee_cents"),
                     freeOverCents: try row.decode("free_over_cents"), sameDay: try row.decode("same_day"))
    }
}
