import Foundation
import HTTP
import ShopCore

/// A product as staff see it on the wire (`/admin/products`, `shop products list --format json`).
public struct AdminProductResponse: Codable, Sendable {
    struct SKUResponse: Codable, Sendable {
        let id: SKUID
        let code: String
        let name: String
        let priceCents: Int64
        let originalPriceCents: Int64
        let stock: Int64
        let status: ProductStatus

        init(_ sku: AdminSKU) {
            id = sku.id
            code = sku.code
            name = sku.name
            priceCents = sku.priceCents
            originalPriceCents = sku.originalPriceCents
            stock = sku.stock
            status = sku.status
        }
    }

    let id: ProductID
    let code: String
    let title: String
    let subtitle: String
    let description: String
    let categoryID: CategoryID
    let categoryPath: String
    let status: ProductStatus
    let coverURL: String
    let imageURLs: [String]
    let attributes: [String: JSONValue]
    let delivery: DeliveryKind
    let priceCents: Int64
    let totalStock: Int64
    let sales: Int64
    let skus: [SKUResponse]
    let createdAt: Date
    let updatedAt: Date

    public init(_ product: AdminProduct) {
        id = product.id
        code = product.code
        title = product.title
        subtitle = product.subtitle
        description = product.description
        categoryID = product.categoryID
        categoryPath = product.categoryPath
        status = product.status
        coverURL = product.coverURL
        imageURLs = product.imageURLs
        attributes = product.attributes
        delivery = product.delivery
        priceCents = product.priceCents
        totalStock = product.totalStock
        sales = product.sales
        skus = product.skus.map(SKUResponse.init)
        createdAt = Date(timeIntervalSince1970: TimeInterval(product.createdAt))
        updatedAt = Date(timeIntervalSince1970: TimeInterval(product.updatedAt))
    }
}

/// A SKU after `PATCH /admin/skus/{id}`: its fields and own status, its product and the product's status.
struct AdminSKUUpdateResponse: Codable {
    let id: SKUID
    let productID: ProductID
    let code: String
    let name: String
    let priceCents: Int64
    let originalPriceCents: Int64
    let stock: Int64
    let status: ProductStatus
    let productStatus: ProductStatus

    init(_ update: AdminSKUUpdate) {
        id = update.sku.id
        productID = update.productID
        code = update.sku.code
        name = update.sku.name
        priceCents = update.sku.priceCents
        originalPriceCents = update.sku.originalPriceCents
        stock = update.sku.stock
        status = update.sku.status
        productStatus = update.productStatus
    }
}

/// A category as staff see it.
struct AdminCategoryResponse: Codable {
    let id: CategoryID
    let name: String
    @ExplicitNull var parentID: CategoryID?
    let path: String

    init(_ category: AdminCategory) {
        id = category.id
        name = category.name
        parentID = category.parentID
        path = category.path
    }
}

/// The keys of a JSON object body, checked against what a route takes: a misspelt field is
/// refused (400 `unknown_field`) rather than ignored, so nothing is written that was not meant.
struct AdminBody {
    /// Keys present, and which of them are `null`.
    let keys: Set<String>
    let nulls: Set<String>

    /// `nested`: the keys allowed in the objects of an array field (`skus`).
    init(_ request: Request, allowed: Set<String>, nested: [String: Set<String>] = [:]) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
            // Not an object (or not JSON): `Request.decode` says what is wrong.
            keys = []
            nulls = []
            return
        }
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw HTTPError(AdminCatalogMessage.unknownField, ["field": .verbatim(key)], field: key)
        }
        for (field, allowedInside) in nested {
            guard let items = object[field] as? [Any] else { continue }
            for (index, item) in items.enumerated() {
                guard let inner = item as? [String: Any] else { continue }
                for key in inner.keys.sorted() where !allowedInside.contains(key) {
                    let path = "\(field).\(index).\(key)"
                    throw HTTPError(AdminCatalogMessage.unknownField, ["field": .verbatim(path)], field: path)
                }
            }
        }
        keys = Set(object.keys)
        nulls = Set(object.filter { $0.value is NSNull }.map(\.key))
    }

    /// The field was sent as `null`.
    func isNull(_ key: String) -> Bool { nulls.contains(key) }
}
