import Foundation

/// A node of the category tree.
public struct CategoryNode: Sendable, Equatable {
    public let id: CategoryID
    public let name: String
    public let parentID: CategoryID?
    public var children: [CategoryNode]
}

/// Whether a product can be bought.
public enum ProductStatus: String, Sendable, Codable, CaseIterable {
    case onSale = "on_sale"
    case offSale = "off_sale"
}

/// A product in a list: its lowest-priced SKU gives the price.
public struct ProductSummary: Sendable, Equatable {
    public let id: ProductID
    public let title: String
    public let subtitle: String
    public let coverURL: String
    public let priceCents: Int64
    public let originalPriceCents: Int64
    public let sales: Int64
    public let inStock: Bool
}

/// One purchasable variant of a product.
public struct SKU: Sendable, Equatable {
    public let id: SKUID
    public let code: String
    public let name: String
    public let priceCents: Int64
    /// The list price before discount; equal to `priceCents` when the SKU is not discounted.
    public let originalPriceCents: Int64
    public let stock: Int64
}

/// A product page: the summary plus everything the detail screen shows.
public struct ProductDetail: Sendable, Equatable {
    public let summary: ProductSummary
    public let description: String
    public let images: [String]
    public let categoryID: CategoryID
    public let attributes: [String: JSONValue]
    public let skus: [SKU]
    /// How many users keep it in their favourites.
    public let favoritesCount: Int64
}

/// The orders a product list can take.
public enum ProductSort: String, Sendable, CaseIterable {
    case relevance, newest
    case priceAscending = "price_asc"
    case priceDescending = "price_desc"
    case sales
}

/// Filters, search text, order and page of `GET /products`.
public struct ProductQuery: Sendable {
    public var categoryID: CategoryID?
    public var text: String?
    public var minPriceCents: Int64?
    public var maxPriceCents: Int64?
    public var sort: ProductSort?
    public var page: PageRequest
    /// Who searched, for the hot keywords; every search of an unknown searcher counts as one person.
    public var searcher: Visitor?

    public init(categoryID: CategoryID? = nil, text: String? = nil, minPriceCents: Int64? = nil,
                maxPriceCents: Int64? = nil, sort: ProductSort? = nil, page: PageRequest, searcher: Visitor? = nil) {
        self.categoryID = categoryID
        self.text = text
        self.minPriceCents = minPriceCents
        self.maxPriceCents = maxPriceCents
        self.sort = sort
        self.page = page
        self.searcher = searcher
    }
}

/// A keyword and how many different people searched it (and found something) in the last 7 days.
public struct HotKeyword: Sendable, Equatable {
    public let keyword: String
    public let count: Int
}

/// The fields that filter a product list or search: one key for every cache of lists (totals,
/// search counts, kept responses).
public struct ProductFilter: Hashable, Sendable {
    /// The query's bytes, nil for a list without search (bytes: Swift's `==` on strings would
    /// treat `é` and `e` + U+0301 as one, which may search differently).
    public let text: [UInt8]?
    public let category: CategoryID?
    public let minPrice: Int64?
    public let maxPrice: Int64?

    /// The query's filter, with `text` as the caller keys it (as sent, or folded).
    public init(_ query: ProductQuery, text: String?) {
        self.text = text.map { Array($0.utf8) }
        category = query.categoryID
        minPrice = query.minPriceCents
        maxPrice = query.maxPriceCents
    }

    init(text: String) {
        self.text = Array(text.utf8)
        category = nil
        minPrice = nil
        maxPrice = nil
    }
}
