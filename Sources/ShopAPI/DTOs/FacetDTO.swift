import ShopCore

/// A page of product summaries (`{"items", "page", "per_page", "total"}`) with `facets` beside
/// them when the request asked for them (`facets=true`); without, the key is absent.
typealias ProductListResponse = Flat<PageResponse<ProductSummaryResponse>, ProductFacetsField>

extension Flat where Shared == PageResponse<ProductSummaryResponse>, Own == ProductFacetsField {
    init(_ listing: ProductListing) {
        self.init(PageResponse(listing.page, ProductSummaryResponse.init), ProductFacetsField(facets: listing.facets.map(FacetsResponse.init)))
    }
}

/// The optional `facets` key of a product list.
struct ProductFacetsField: Codable {
    let facets: FacetsResponse?
}

/// `ProductFacets` on the wire: `{"categories": [...], "price_ranges": [...]}`.
struct FacetsResponse: Codable {
    /// A category chip: `parent_id` is null at the top of the tree.
    struct CategoryCount: Codable {
        let id: CategoryID
        let name: String
        @ExplicitNull var parentID: CategoryID?
        let count: Int
    }

    /// A price chip: `max_cents` is null for the open top range; both ends inclusive.
    struct PriceRangeCount: Codable {
        let minCents: Int64
        @ExplicitNull var maxCents: Int64?
        let count: Int
    }

    let categories: [CategoryCount]
    let priceRanges: [PriceRangeCount]

    init(_ facets: ProductFacets) {
        categories = facets.categories.map { CategoryCount(id: $0.id, name: $0.name, parentID: $0.parentID, count: $0.count) }
        priceRanges = facets.priceRanges.map { PriceRangeCount(minCents: $0.minCents, maxCents: $0.maxCents, count: $0.count) }
    }
}
