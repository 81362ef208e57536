import HTTP
import ShopCore

/// The shop's delivery zones for staff (owner and manager: `delivery`): the list, and the whole set
/// replaced at once (validated as a whole, audited; a refused set changes nothing).
struct AdminDeliveryController {
    let zones: DeliveryZones

    /// `PUT /admin/delivery/zones` `{"zones": [...]}`: every zone the shop will have.
    struct ReplaceRequest: Decodable {
        let zones: [ZoneRequest]
    }

    struct ZoneRequest: Decodable {
        let name: String
        let regionCodes: [String]
        let feeCents: Int64
        let freeOverCents: Int64?
        let sameDay: Bool
    }

    static let zoneFields: Set<String> = ["name", "region_codes", "fee_cents", "free_over_cents", "same_day"]

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/delivery/zones", use: list)
        admin.put("/admin/delivery/zones", use: replace)
    }

    /// Every zone, in the order it was sent: `{"zones": [...]}`, the body `PUT` takes.
    func list(_ request: Request, _ context: Context) throws -> Response {
        try .json(DeliveryZonesResponse(zones: try zones.list().map(DeliveryZoneBody.init)))
    }

    /// Replaces every zone (an empty list removes them all: every address is served free again);
    /// 422 `invalid_zones` listing every problem otherwise.
    func replace(_ request: Request, _ context: Context) throws -> Response {
        let body = try AdminBody(request, allowed: ["zones"], nested: ["zones": Self.zoneFields])
        if body.isNull("zones") { throw ValidationError("zones", .required) }
        let sent = try request.decode(ReplaceRequest.self)
        let drafts = sent.zones.map {
            DeliveryZoneDraft(name: $0.name, regionCodes: $0.regionCodes, feeCents: $0.feeCents, freeOverCents: $0.freeOverCents,
                              sameDay: $0.sameDay)
        }
        let replaced = try zones.replace(with: drafts, by: try context.staffActor())
        return try .json(DeliveryZonesResponse(zones: replaced.map(DeliveryZoneBody.init)))
    }
}

/// `{"zones": [...]}`.
struct DeliveryZonesResponse: Codable {
    let zones: [DeliveryZoneBody]
}

/// A zone on the wire: `{"name", "region_codes", "fee_cents", "free_over_cents", "same_day"}`.
struct DeliveryZoneBody: Codable {
    let name: String
    let regionCodes: [RegionCode]
    let feeCents: Int64
    @ExplicitNull var freeOverCents: Int64?
    let sameDay: Bool

    init(_ zone: DeliveryZone) {
        name = zone.name
        regionCodes = zone.regionCodes
        feeCents = zone.feeCents
        freeOverCents = zone.freeOverCents
        sameDay = zone.sameDay
    }
}
