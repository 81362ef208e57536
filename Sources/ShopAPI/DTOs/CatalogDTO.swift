import ShopCore

/// A category and its sub-categories.
struct CategoryResponse: Encodable {
    let id: CategoryID
    let name: String
    let parentID: CategoryID?
    let children: [CategoryResponse]

    init(_ node: CategoryNode) {
        id = node.id
        name = node.name
        parentID = node.parentID
        children = node.children.map(CategoryResponse.init)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(parentID, forKey: .parentID)
        try container.encode(children, forKey: .children)
    }

    private enum CodingKeys: String, CodingKey { case id, name, parentID, children }
}

/// `ProductSummary` on the wire.
struct ProductSummaryResponse: Encodable {
    let id: ProductID
    let title: String
    let subtitle: String
    let coverURL: String
    let priceCents: Int64
    let originalPriceCents: Int64
    let sales: Int64
    let inStock: Bool

    init(_ p: ProductSummary) {
        id = p.id
        title = p.title
        subtitle = p.subtitle
        coverURL = p.coverURL
        priceCents = p.priceCents
        originalPriceCents = p.originalPriceCents
        sales = p.sales
        inStock = p.inStock
    }
}

/// A product page: the summary fields plus description, images, category, attributes and SKUs.
struct ProductDetailResponse: Encodable {
    struct SKUResponse: Encodable {
        let id: SKUID
        let code: String
        let name: String
        let priceCents: Int64
        let stock: Int64
    }

    /// The summary fields, at the same level as the rest.
    let summary: ProductSummaryResponse
    let description: String
    let images: [String]
    let categoryID: CategoryID
    let attributes: [String: JSONValue]
    let skus: [SKUResponse]

    init(_ d: ProductDetail) {
        summary = ProductSummaryResponse(d.summary)
        description = d.description
        images = d.images
        categoryID = d.categoryID
        attributes = d.attributes
        skus = d.skus.map { SKUResponse(id: $0.id, code: $0.code, name: $0.name, priceCents: $0.priceCents, stock: $0.stock) }
    }

    func encode(to encoder: any Encoder) throws {
        try summary.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(description, forKey: .description)
        try c.encode(images, forKey: .images)
        try c.encode(categoryID, forKey: .categoryID)
        try c.encode(attributes, forKey: .attributes)
        try c.encode(skus, forKey: .skus)
    }

    private enum CodingKeys: String, CodingKey { case description, images, categoryID, attributes, skus }
}

struct HotKeywordResponse: Encodable {
    let keyword: String
    let count: Int
}
