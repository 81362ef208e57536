import HTTP
import Localization
import ShopCore

/// `GET /delivery/dates?sku_ids=1,2`: the days and slots a storefront can offer for an order of
/// these SKUs placed now (public: the answer depends on the products and the clock, not the buyer).
struct DeliveryController {
    let orders: OrderService

    static let maxSKUs = OrderService.maxLines

    /// One possible day on the wire: `{"date": "2026-12-01", "slots": ["afternoon", "evening"]}`.
    struct DayBody: Codable {
        let date: String
        let slots: [DeliverySlot]
    }

    func register(_ routes: RouteGroup) {
        routes.get("/delivery/dates", use: dates)
    }

    /// The possible days, earliest first, each with its open slots; an unknown SKU is 404.
    func dates(_ request: Request, _ context: Context) throws -> Response {
        let days = try orders.deliveryDays(for: try Self.skuIDs(request.query["sku_ids"]))
        return try .json(ItemsResponse(items: days.map { DayBody(date: $0.date.description, slots: $0.slots) }))
    }

    /// `1,2,3`: up to `maxSKUs` SKU ids (repeats count once); empty or absent: none.
    static func skuIDs(_ text: String?) throws -> [SKUID] {
        guard let text, !text.isEmpty else { return [] }
        var ids: [SKUID] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard (1...18).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int64(part) else { throw ValidationError("sku_ids", .wholeNumber) }
            let id = SKUID(value)
            if !ids.contains(id) { ids.append(id) }
            guard ids.count <= maxSKUs else { throw ValidationError("sku_ids", .lineCount, ["min": .verbatim("1"), "max": .verbatim(String(maxSKUs))]) }
        }
        return ids
    }
}
