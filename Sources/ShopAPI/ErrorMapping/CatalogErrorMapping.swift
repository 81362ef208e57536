import HTTP
import ShopCore

extension ErrorMapping {
    /// Catalogue: unknown products and categories are 404.
    @Sendable static func catalog(_ error: any Error) -> HTTPError? {
        guard let error = error as? CatalogError else { return nil }
        switch error {
        case .productNotFound: return HTTPError(.productNotFound)
        case .categoryNotFound: return HTTPError(.categoryNotFound)
        }
    }
}
