import HTTP
import ShopCore

extension ErrorMapping {
    /// Catalogue: unknown products and categories are 404; too many searches from one address 429;
    /// staff edits (`CatalogAdminError`) as `adminCatalog` maps them.
    @Sendable static func catalog(_ error: any Error) -> HTTPError? {
        guard let error = error as? CatalogError else { return adminCatalog(error) }
        switch error {
        case .productNotFound: return HTTPError(.productNotFound)
        case .categoryNotFound: return HTTPError(.categoryNotFound)
        case .tooManySearches(let seconds):
            return HTTPError(.tooManySearches, ["seconds": .verbatim(String(seconds))], retryAfter: seconds)
        }
    }
}
