import HTTP
import ShopCore

/// Maps each ShopCore error to a status and a stable `code`; each module's mapping has its own file.
enum ErrorMapping {
    static let mappers: [@Sendable (any Error) -> HTTPError?] = [validation, account, staff, catalog, cart, address, region, favorite, order, afterSale, coupon, delivery, deliveryZone, synonyms, payment, social, media, database]

    /// The client-facing error for a domain error, or nil for an unexpected one (then 500).
    @Sendable static func map(_ error: any Error) -> HTTPError? {
        for mapper in mappers {
            if let mapped = mapper(error) { return mapped }
        }
        return nil
    }
}
