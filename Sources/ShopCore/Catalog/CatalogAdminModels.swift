import Foundation

/// A SKU as staff see it (the audit log's snapshot of a SKU too).
public struct AdminSKU: Sendable, Equatable, Codable {
    public let id: SKUID
    public let code: String
    public let name: String
    public let priceCents: Int64
    public let originalPriceCents: Int64
    public let stock: Int64
    /// The SKU's own sale status: buyers see and buy it only while it and its product are on sale.
    public let status: ProductStatus
}

/// A product as staff see it: on sale or not, with its code, category, every SKU and its stock.
public struct AdminProduct: Sendable, Equatable, Codable {
    public let id: ProductID
    public let code: String
    public let title: String
    public let subtitle: String
    public let description: String
    public let categoryID: CategoryID
    /// `花束/玫瑰`: what the import names the category by.
    public let categoryPath: String
    public let status: ProductStatus
    public let coverURL: String
    public let imageURLs: [String]
    public let attributes: [String: JSONValue]
    public let delivery: DeliveryKind
    /// The lowest SKU price (what lists show) and the stock of all SKUs together.
    public let priceCents: Int64
    public let totalStock: Int64
    public let sales: Int64
    public let skus: [AdminSKU]
    public let createdAt: Int64
    public let updatedAt: Int64
}

/// Filters of the staff's product list (`GET /admin/products`, `shop products list`).
public struct AdminProductQuery: Sendable, Equatable {
    /// Part of the title, the product code or a SKU code (case-insensitive).
    public var text: String?
    public var status: ProductStatus?
    /// This category and those under it.
    public var categoryID: CategoryID?
    /// Products with a SKU that has at most this many left.
    public var lowStock: Int64?
    public var page: PageRequest

    public init(text: String? = nil, status: ProductStatus? = nil, categoryID: CategoryID? = nil, lowStock: Int64? = nil,
                page: PageRequest) {
        self.text = text
        self.status = status
        self.categoryID = categoryID
        self.lowStock = lowStock
        self.page = page
    }
}

/// A SKU of a new product.
public struct NewSKU: Sendable, Equatable {
    public var code: String
    /// Empty: `默认`, as the import names a product's only variant.
    public var name: String
    public var priceCents: Int64
    /// nil: the price (not discounted).
    public var originalPriceCents: Int64?
    public var stock: Int64

    public init(code: String, name: String, priceCents: Int64, originalPriceCents: Int64? = nil, stock: Int64) {
        self.code = code
        self.name = name
        self.priceCents = priceCents
        self.originalPriceCents = originalPriceCents
        self.stock = stock
    }
}

/// A product to create (`POST /admin/products`).
public struct NewProduct: Sendable, Equatable {
    public var code: String
    public var title: String
    public var subtitle: String
    public var description: String
    public var categoryID: CategoryID
    public var status: ProductStatus
    public var coverURL: String
    public var imageURLs: [String]
    public var attributes: [String: JSONValue]
    public var skus: [NewSKU]

    public init(code: String, title: String, subtitle: String = "", description: String = "", categoryID: CategoryID,
                status: ProductStatus = .onSale, coverURL: String = "", imageURLs: [String] = [],
                attributes: [String: JSONValue] = [:], skus: [NewSKU]) {
        self.code = code
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.categoryID = categoryID
        self.status = status
        self.coverURL = coverURL
        self.imageURLs = imageURLs
        self.attributes = attributes
        self.skus = skus
    }
}

/// Changes to a product's own fields (`PATCH /admin/products/{id}`); nil leaves a field as it is.
public struct ProductChanges: Sendable, Equatable {
    public var code: String?
    public var title: String?
    public var subtitle: String?
    public var description: String?
    public var categoryID: CategoryID?
    public var status: ProductStatus?
    public var coverURL: String?
    public var imageURLs: [String]?
    public var attributes: [String: JSONValue]?

    public init(code: String? = nil, title: String? = nil, subtitle: String? = nil, description: String? = nil,
                categoryID: CategoryID? = nil, status: ProductStatus? = nil, coverURL: String? = nil,
                imageURLs: [String]? = nil, attributes: [String: JSONValue]? = nil) {
        self.code = code
        self.title = title
        self.subtitle = subtitle
        self.description = description
        self.categoryID = categoryID
        self.status = status
        self.coverURL = coverURL
        self.imageURLs = imageURLs
        self.attributes = attributes
    }
}

/// How a SKU's stock changes: set outright, or moved by a delta (what arrived, what broke), which
/// never takes it below 0.
public enum StockChange: Sendable, Equatable {
    case set(Int64)
    case delta(Int64)
}

/// Changes to a SKU (`PATCH /admin/skus/{id}`, `shop products set`); nil leaves a field as it is.
public struct SKUChanges: Sendable, Equatable {
    public var name: String?
    public var priceCents: Int64?
    public var originalPriceCents: Int64?
    public var stock: StockChange?
    /// The SKU's own sale status (its product's is `ProductChanges.status`).
    public var status: ProductStatus?

    public init(name: String? = nil, priceCents: Int64? = nil, originalPriceCents: Int64? = nil, stock: StockChange? = nil,
                status: ProductStatus? = nil) {
        self.name = name
        self.priceCents = priceCents
        self.originalPriceCents = originalPriceCents
        self.stock = stock
        self.status = status
    }
}

/// A SKU after an edit, with its product's status (what `PATCH /admin/skus/{id}` answers).
public struct AdminSKUUpdate: Sendable, Equatable, Codable {
    public let sku: AdminSKU
    public let productID: ProductID
    public let productStatus: ProductStatus
}

/// A category as staff see it (the audit snapshot too).
public struct AdminCategory: Sendable, Equatable, Codable {
    public let id: CategoryID
    public let name: String
    public let parentID: CategoryID?
    public let path: String
}

/// A change of a category's name or place; `parent` nil leaves it where it is, `.some(nil)` moves it to the top.
public struct CategoryChanges: Sendable, Equatable {
    public var name: String?
    public var parent: CategoryID??

    public init(name: String? = nil, parent: CategoryID?? = nil) {
        self.name = name
        self.parent = parent
    }
}

/// Why a catalogue edit by staff was refused; nothing was written.
public enum CatalogAdminError: Error, Equatable, Sendable {
    /// Another product has this code.
    case productCodeTaken(String)
    /// Another SKU has this code (`field`: where in the request).
    case skuCodeTaken(String, field: String)
    case skuNotFound
    /// `category_id` of a product names no category.
    case unknownCategory(field: String)
    /// A category with this path exists already.
    case categoryExists(path: String)
    /// The category still holds products, categories or coupons.
    case categoryNotEmpty(products: Int, children: Int, coupons: Int)
    /// The new parent is the category itself or one of its descendants.
    case categoryCycle
    /// The category tree would be deeper than the import allows.
    case categoryTooDeep(max: Int)
    /// Taking `delta` from the `stock` on hand would leave less than nothing.
    case stockBelowZero(stock: Int64, delta: Int64)
}
