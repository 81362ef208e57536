import HTTP
import ShopCore

/// `GET /delivery/quote?address_id=&sku_ids=`: for a signed-in buyer's own address, the delivery
/// zone serving it, its fee and the days (and slots) an order of these SKUs could be delivered on.
struct DeliveryQuoteController {
    let orders: OrderService

    /// `{"zone", "fee_cents", "dates": [{"date", "slots"}]}`; `zone` is null while the shop has no zones.
    struct QuoteResponse: Codable {
        @ExplicitNull var zone: ServingZoneBody?
        let feeCents: Int64
        let dates: [DeliveryController.DayBody]
    }

    func register(_ signedIn: RouteGroup) {
        signedIn.get("/delivery/quote", use: quote)
    }

    /// Another buyer's address (or none) is 404; outside every zone is 422 `delivery_unavailable` on
    /// `address_id`; `sku_ids` as `/delivery/dates` takes them.
    func quote(_ request: Request, _ context: Context) throws -> Response {
        guard let address = try request.queryInt("address_id") else { throw ValidationError("address_id", .required) }
        let skus = try DeliveryController.skuIDs(request.query["sku_ids"])
        let user = try context.user()
        // an id no address can have is simply not the buyer's
        guard address > 0 else { throw AddressError.notFound }
        let quote = try orders.deliveryQuote(address: AddressID(address), for: user, skus: skus)
        return try .json(QuoteResponse(zone: quote.coverage.zone.map(ServingZoneBody.init), feeCents: quote.feeCents,
                                       dates: quote.days.map { .init(date: $0.date.description, slots: $0.slots) }))
    }
}

/// The zone serving an address, on the wire: `{"name", "fee_cents", "free_over_cents", "same_day"}`.
struct ServingZoneBody: Codable {
    let name: String
    let feeCents: Int64
    @ExplicitNull var freeOverCents: Int64?
    let sameDay: Bool

    init(_ zone: ServingZone) {
        name = zone.name
        feeCents = zone.feeCents
        freeOverCents = zone.freeOverCents
        sameDay = zone.sameDay
    }
}
