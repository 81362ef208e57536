import SQL

/// The shop's delivery zones for staff and the command line: the list, and replacing the whole set
/// at once, validated as a whole against the region directory (`DeliveryZoneRules`) and audited
/// (`delivery.zones`, before and after) in the same transaction. A refused set changes nothing.
public struct DeliveryZones: Sendable {
    let pool: any Database
    let clock: Clock
    let rules: DeliveryZoneRules
    private let store = DeliveryZoneStore()
    private let audit = AuditTrail()

    public init(pool: any Database, clock: Clock, regions: RegionDirectory) {
        self.pool = pool
        self.clock = clock
        rules = DeliveryZoneRules(regions: regions)
    }

    /// Every zone, in the order it was sent.
    public func list() throws -> [DeliveryZone] {
        try pool.read { db in try store.all(db) }
    }

    /// Replaces every zone with `drafts` (an empty list removes them all: every address is served
    /// free again); `DeliveryZoneError.invalid` listing every problem, and nothing changed, otherwise.
    public func replace(with drafts: [DeliveryZoneDraft], by actor: StaffActor) throws -> [DeliveryZone] {
        let zones = try rules.validated(drafts)
        let now = clock.unixNow
        return try pool.write { db in
            let before = try store.all(db)
            try store.replace(with: zones, at: now, db)
            let after = try store.all(db)
            try audit.record(actor, "delivery.zones", target: "delivery_zones", before: before, after: after, at: now, db)
            return after
        }
    }
}

extension Shop {
    /// The delivery zones (issue 32).
    public var deliveryZones: DeliveryZones { DeliveryZones(pool: pool, clock: clock, regions: regions) }
}
