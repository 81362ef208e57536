import HTTP
import ShopCore

extension ErrorMapping {
    /// The Floral client's own words for the cap: enterprise purchases go through customer service.
    static let cartLimitMessage = "亲，企业采购请联系我们客服"

    /// Cart: the cap, stock, unknown SKUs and lines.
    @Sendable static func cart(_ error: any Error) -> HTTPError? {
        guard let error = error as? CartError else { return nil }
        switch error {
        case .limitExceeded:
            return HTTPError(.unprocessableEntity, code: "cart_limit_exceeded", message: cartLimitMessage, field: "quantity")
        case .outOfStock(let sku, let available):
            return HTTPError(.conflict, code: "out_of_stock",
                             message: "SKU \(sku.rawValue) has only \(available) in stock.", field: "quantity")
        case .skuNotFound:
            return .notFound("No such SKU on sale.")
        case .lineNotFound:
            return .notFound("No such cart line.")
        }
    }

    /// Addresses: unknown (or someone else's) addresses are 404; the book holds at most 20.
    @Sendable static func address(_ error: any Error) -> HTTPError? {
        guard let error = error as? AddressError else { return nil }
        switch error {
        case .notFound:
            return .notFound("No such address.")
        case .limitExceeded(let max):
            return HTTPError(.unprocessableEntity, code: "address_limit_exceeded",
                             message: "An address book holds at most \(max) addresses.")
        }
    }
}
