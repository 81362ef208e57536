import ShopCore

/// A category and its sub-categories.
struct CategoryResponse: Codable {
    let id: CategoryID
    let name: String
    @ExplicitNull var parentID: CategoryID?
    let children: [CategoryResponse]

    init(_ node: CategoryNode) {
        id = node.id
        name = node.name
        parentID = node.parentID
        children = node.children.map(CategoryResponse.init)
    }
}

/// `ProductSummary` on the wire.
struct ProductSummaryResponse: Codable {
    let id: ProductID
    let title: String
    let subtitle: String
    let coverURL: String
    /// The cover's 480 px thumbnail for lists when the shop re-encoded it, else the cover itself.
    let coverThumbnailURL: String
    let priceCents: Int64
    let originalPriceCents: Int64
    let sales: Int64
    let inStock: Bool

    init(_ p: ProductSummary) {
        id = p.id
        title = p.title
        subtitle = p.subtitle
        coverURL = p.coverURL
        coverThumbnailURL = MediaLibrary.thumbnailURL(for: p.coverURL)
        priceCents = p.priceCents
        originalPriceCents = p.originalPriceCents
        sales = p.sales
        inStock = p.inStock
    }
}

/// A product page: the summary fields (flat, as `ProductSummaryResponse` has them) beside its
/// description, images, category, attributes and SKUs.
typealias ProductDetailResponse = Flat<ProductSummaryResponse, ProductDetailFields>

/// What a product page has beyond its summary.
struct ProductDetailFields: Codable {
    struct SKUResponse: Codable {
        let id: SKUID
        let code: String
        let name: String
        let priceCents: Int64
        let originalPriceCents: Int64
        let stock: Int64
    }

    let description: String
    let images: [String]
    /// Each of `images`' 480 px thumbnail when the shop re-encoded it, else the image itself, in the
    /// same order: for a gallery's thumbnail strip.
    let imageThumbnailURLs: [String]
    let categoryID: CategoryID
    let attributes: [String: JSONValue]
    let skus: [SKUResponse]
    let favoritesCount: Int64
    /// Only for a signed-in caller (a plain optional: left out when nil), so the shared body of
    /// an anonymous page never carries it.
    let isFavorite: Bool?
}

extension Flat where Shared == ProductSummaryResponse, Own == ProductDetailFields {
    /// `isFavorite`: the signed-in caller's, nil for everyone else.
    init(_ d: ProductDetail, isFavorite: Bool? = nil) {
        self.init(ProductSummaryResponse(d.summary),
                  ProductDetailFields(description: d.description, images: d.images,
                                      imageThumbnailURLs: d.images.map(MediaLibrary.thumbnailURL(for:)), categoryID: d.categoryID,
                                      attributes: d.attributes,
                                      skus: d.skus.map { .init(id: $0.id, code: $0.code, name: $0.name, priceCents: $0.priceCents,
                                                               originalPriceCents: $0.originalPriceCents, stock: $0.stock) },
                                      favoritesCount: d.favoritesCount, isFavorite: isFavorite))
    }
}

struct HotKeywordResponse: Codable {
    let keyword: String
    let count: Int
}
