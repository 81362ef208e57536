import HTTP
import Localization
import ShopCore

extension ErrorMapping {
    /// Cart: the cap, stock, unknown SKUs and lines.
    @Sendable static func cart(_ error: any Error) -> HTTPError? {
        guard let error = error as? CartError else { return nil }
        switch error {
        case .limitExceeded:
            return HTTPError(.cartLimitExceeded, field: "quantity")
        case .outOfStock(_, let sku, let available):
            return outOfStock(sku, available: available, field: "quantity")
        case .skuNotFound:
            return HTTPError(.skuNotFound)
        case .lineNotFound:
            return HTTPError(.cartLineNotFound)
        }
    }

    /// Addresses: unknown (or someone else's) addresses are 404; the book holds at most 20; a
    /// `region_code` must name a leaf division (422 `invalid_region`).
    @Sendable static func address(_ error: any Error) -> HTTPError? {
        guard let error = error as? AddressError else { return nil }
        switch error {
        case .notFound:
            return HTTPError(.addressNotFound)
        case .limitExceeded(let max):
            return HTTPError(.addressLimitExceeded, ["max": .verbatim(String(max))])
        case .unknownRegion(let code):
            return HTTPError(.addressRegionUnknown, ["code": .verbatim(code.rawValue)], field: "region_code")
        case .regionNotALeaf(_, let name):
            return HTTPError(.addressRegionNotALeaf, ["name": .verbatim(name)], field: "region_code")
        }
    }

    /// Favourites: the only refusal of their own is the limit (unknown items map as catalogue/social errors).
    @Sendable static func favorite(_ error: any Error) -> HTTPError? {
        guard let error = error as? FavoriteError else { return nil }
        switch error {
        case .limitReached(let max):
            return HTTPError(.favoritesLimitExceeded, ["max": .verbatim(String(max))])
        }
    }

    /// Not enough of a SKU, named as the shopper sees it: `红玫瑰花束·热恋 19枝 只剩 86 件`.
    static func outOfStock(_ sku: SKULabel, available: Int64, field: String) -> HTTPError {
        if available <= 0 { return HTTPError(.soldOut, ["sku": .verbatim(sku.text)], field: field) }
        return HTTPError(.outOfStock, ["sku": .verbatim(sku.text), "available": .verbatim(String(available))], field: field)
    }
}
