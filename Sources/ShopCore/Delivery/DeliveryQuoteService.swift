import Foundation
import SQL

extension OrderService {
    /// `GET /delivery/quote`: the zone serving one's own address (anyone else's is
    /// `AddressError.notFound`), its fee before any free-over amount, and the days an order of
    /// `skus` could be delivered there on if placed now (no same-day delivery to a zone without
    /// it). Outside every zone: `DeliveryZoneError.outsideArea`. One read.
    public func deliveryQuote(address id: AddressID, for user: UserID, skus: [SKUID]) throws -> DeliveryQuote {
        let now = clock.now
        return try pool.read { db in
            guard let address = try AddressStore().find(id, of: user, db) else { throw AddressError.notFound }
            let coverage = try areas.coverage(of: address, db)
            let days = try deliveryDays(for: skus, sameDay: coverage.sameDay, at: now, db)
            return DeliveryQuote(coverage: coverage, feeCents: coverage.zone?.feeCents ?? 0, days: days)
        }
    }
}
