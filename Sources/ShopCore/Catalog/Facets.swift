/// How many products of a list fall in each category and each price range: the storefront's
/// filter chips with counts (`GET /products?facets=true`).
///
/// Each dimension is counted with every filter of the list but its own, so a shopper who picked a
/// category still sees its siblings' counts, and one who picked a price range sees the others':
/// - a category's count is the list's `total` with `category_id` set to it and the same text and
///   price filters. `category_id` takes a category and everything under it, so a product counts
///   under its own category and under each category above it; a parent's count is its children's
///   and its own products together. Categories with no product in the list are left out.
/// - a price range's count is the list's `total` with `min_price_cents`/`max_price_cents` set to
///   the range and the same text and category filters; every range is listed, empty ones too.
public struct ProductFacets: Sendable, Equatable {
    public let categories: [CategoryFacet]
    public let priceRanges: [PriceRangeFacet]

    public init(categories: [CategoryFacet], priceRanges: [PriceRangeFacet]) {
        self.categories = categories
        self.priceRanges = priceRanges
    }
}

/// A category of the tree and how many products of the list are in it or under it.
public struct CategoryFacet: Sendable, Equatable {
    public let id: CategoryID
    public let name: String
    /// nil at the top of the tree: the storefront shows children beside their picked parent.
    public let parentID: CategoryID?
    public let count: Int
}

/// A fixed price range (of `price_cents`, the product's lowest SKU price, as the price filter reads
/// it) and how many products of the list are in it.
public struct PriceRangeFacet: Sendable, Equatable {
    /// Inclusive, as `min_price_cents` takes it.
    public let minCents: Int64
    /// Inclusive, as `max_price_cents` takes it; nil for the open top range.
    public let maxCents: Int64?
    public let count: Int
}

/// A page of a product list and, when asked for, its facets (read in the same transaction, so the
/// counts agree with the page's `total`).
public struct ProductListing: Sendable {
    public let page: Page<ProductSummary>
    public let facets: ProductFacets?
}

/// The price ranges of the chips, for a flower shop in yuan: under 100, 100–200, 200–300, 300–500,
/// 500 and up.
enum PriceRanges {
    /// Where one range ends and the next starts, in cents, ascending.
    static let cuts: [Int64] = [10_000, 20_000, 30_000, 50_000]
}

extension Versioned {
    /// The same answer with its value transformed (`unchanged` stays unchanged).
    public func map<Other>(_ transform: (Value) throws -> Other) rethrows -> Versioned<Other> {
        switch self {
        case .unchanged: .unchanged
        case .current(let value, let version): .current(try transform(value), version: version)
        }
    }
}
