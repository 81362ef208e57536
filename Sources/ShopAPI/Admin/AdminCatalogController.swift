import HTTP
import ShopCore

/// The staff's catalogue: products with every SKU (off sale included), product and SKU edits, and
/// the category tree's edits. Each write is one `CatalogAdminService` call, audited in its own
/// transaction; buyers' kept responses are keyed by the catalogue's change counters, which the
/// write moves, so the next buyer request shows it.
struct AdminCatalogController {
    let admin: CatalogAdminService

    /// `PATCH /admin/products/{id}` and the creation's product fields.
    static let productFields: Set<String> = ["code", "title", "subtitle", "description", "category_id", "status", "cover_url",
                                             "image_urls", "attributes"]
    static let skuFields: Set<String> = ["code", "name", "price_cents", "original_price_cents", "stock"]

    struct SKURequest: Decodable {
        let code: String
        let name: String?
        let priceCents: Int64
        let originalPriceCents: Int64?
        let stock: Int64
    }

    struct CreateProductRequest: Decodable {
        let code: String
        let title: String
        let subtitle: String?
        let description: String?
        let categoryID: CategoryID
        let status: ProductStatus?
        let coverURL: String?
        let imageURLs: [String]?
        let attributes: [String: JSONValue]?
        let skus: [SKURequest]
    }

    struct UpdateProductRequest: Decodable {
        let code: String?
        let title: String?
        let subtitle: String?
        let description: String?
        let categoryID: CategoryID?
        let status: ProductStatus?
        let coverURL: String?
        let imageURLs: [String]?
        let attributes: [String: JSONValue]?
    }

    struct UpdateSKURequest: Decodable {
        let name: String?
        let priceCents: Int64?
        let originalPriceCents: Int64?
        let stock: Int64?
        let stockDelta: Int64?
        let status: ProductStatus?
    }

    struct CategoryRequest: Decodable {
        let name: String?
        let parentID: CategoryID?
    }

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/products", use: list)
        admin.get("/admin/products/:id", use: show)
        admin.post("/admin/products", use: create)
        admin.patch("/admin/products/:id", use: update)
        admin.patch("/admin/skus/:id", use: updateSKU)
        admin.get("/admin/categories", use: categories)
        admin.post("/admin/categories", use: createCategory)
        admin.patch("/admin/categories/:id", use: updateCategory)
        admin.delete("/admin/categories/:id", use: deleteCategory)
    }

    /// Products on sale or not, newest first: `q`, `status`, `category_id`, `low_stock` filter.
    func list(_ request: Request, _ context: Context) throws -> Response {
        let query = AdminProductQuery(text: request.query["q"], status: try request.queryEnum("status", ProductStatus.self),
                                      categoryID: try request.queryInt("category_id").map(CategoryID.init),
                                      lowStock: try request.queryInt("low_stock"), page: try request.pageRequest())
        return try .json(PageResponse(try admin.products(query), AdminProductResponse.init))
    }

    func show(_ request: Request, _ context: Context) throws -> Response {
        try .json(AdminProductResponse(try admin.product(ProductID(try request.idParameter()))))
    }

    /// A new product with its SKUs → 201.
    func create(_ request: Request, _ context: Context) throws -> Response {
        let body = try AdminBody(request, allowed: Self.productFields.union(["skus"]), nested: ["skus": Self.skuFields])
        try body.refuseNulls()
        let new = try request.decode(CreateProductRequest.self)
        let product = NewProduct(
            code: new.code, title: new.title, subtitle: new.subtitle ?? "", description: new.description ?? "",
            categoryID: new.categoryID, status: new.status ?? .onSale, coverURL: new.coverURL ?? "", imageURLs: new.imageURLs ?? [],
            attributes: new.attributes ?? [:],
            skus: new.skus.map { NewSKU(code: $0.code, name: $0.name ?? "", priceCents: $0.priceCents,
                                        originalPriceCents: $0.originalPriceCents, stock: $0.stock) })
        return try .json(AdminProductResponse(try admin.create(product, by: try context.staffActor())), status: .created)
    }

    /// Any of the product's own fields; the others stay.
    func update(_ request: Request, _ context: Context) throws -> Response {
        let id = ProductID(try request.idParameter())
        let body = try AdminBody(request, allowed: Self.productFields)
        try body.refuseNulls()
        let changes = try request.decode(UpdateProductRequest.self)
        let product = try admin.update(id, ProductChanges(
            code: changes.code, title: changes.title, subtitle: changes.subtitle, description: changes.description,
            categoryID: changes.categoryID, status: changes.status, coverURL: changes.coverURL, imageURLs: changes.imageURLs,
            attributes: changes.attributes), by: try context.staffActor())
        return try .json(AdminProductResponse(product))
    }

    /// Name, prices, stock (`stock` or `stock_delta`, not both) and the SKU's own sale status.
    func updateSKU(_ request: Request, _ context: Context) throws -> Response {
        let id = SKUID(try request.idParameter())
        let body = try AdminBody(request, allowed: ["name", "price_cents", "original_price_cents", "stock", "stock_delta", "status"])
        try body.refuseNulls()
        let changes = try request.decode(UpdateSKURequest.self)
        let stock: StockChange?
        switch (changes.stock, changes.stockDelta) {
        case (let value?, nil): stock = .set(value)
        case (nil, let delta?): stock = .delta(delta)
        case (nil, nil): stock = nil
        case (_?, _?): throw HTTPError(AdminCatalogMessage.stockTwice, field: "stock_delta")
        }
        let updated = try admin.updateSKU(id, SKUChanges(name: changes.name, priceCents: changes.priceCents,
                                                         originalPriceCents: changes.originalPriceCents, stock: stock,
                                                         status: changes.status), by: try context.staffActor())
        return try .json(AdminSKUUpdateResponse(updated))
    }

    /// Every category by path (flat; `parent_id` links them).
    func categories(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try admin.categories().map(AdminCategoryResponse.init)))
    }

    func createCategory(_ request: Request, _ context: Context) throws -> Response {
        let body = try AdminBody(request, allowed: ["name", "parent_id"])
        let new = try request.decode(CategoryRequest.self)
        guard let name = new.name, !body.isNull("name") else { throw ValidationError("name", .required) }
        let category = try admin.createCategory(name: name, parent: new.parentID, by: try context.staffActor())
        return try .json(AdminCategoryResponse(category), status: .created)
    }

    /// A new name and/or parent (`"parent_id": null`: the top level).
    func updateCategory(_ request: Request, _ context: Context) throws -> Response {
        let id = CategoryID(try request.idParameter())
        let body = try AdminBody(request, allowed: ["name", "parent_id"])
        if body.isNull("name") { throw ValidationError("name", .empty) }
        let changes = try request.decode(CategoryRequest.self)
        let parent: CategoryID?? = body.keys.contains("parent_id") ? .some(changes.parentID) : nil
        let category = try admin.updateCategory(id, CategoryChanges(name: changes.name, parent: parent), by: try context.staffActor())
        return try .json(AdminCategoryResponse(category))
    }

    /// An empty category; 409 `category_not_empty` while products, categories or coupons remain in it.
    func deleteCategory(_ request: Request, _ context: Context) throws -> Response {
        try admin.deleteCategory(CategoryID(try request.idParameter()), by: try context.staffActor())
        return .empty()
    }
}

extension AdminBody {
    /// A field sent as `null` where only values are taken: 422 naming it.
    func refuseNulls() throws {
        if let field = nulls.sorted().first { throw ValidationError(field, .empty) }
    }
}
