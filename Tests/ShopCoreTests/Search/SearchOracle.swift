import Foundation
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

/// What a search must answer, worked out the slow way from every row: the products whose folded
/// title, subtitle or description contains the folded query (ASCII letters folded, bytes
/// compared), ranked by named category, then first matching field, then sales, then id — or by
/// the sort asked for. Written apart from the shop's code, so it checks the index, the walks and
/// the cached totals rather than repeating them.
struct SearchOracle {
    struct Product {
        let id: Int64
        let code: String
        let fields: [[UInt8]]
        let onSale: Bool
        let sales: Int64
        let price: Int64
        let createdAt: Int64
        let category: Int64
    }

    let products: [Product]
    /// Category id → (folded name, parent id).
    let categories: [Int64: (name: [UInt8], parent: Int64?)]

    init(_ fixture: TestShop) throws {
        (products, categories) = try fixture.pool.read { db in
            let products = try db.query("""
                SELECT id, code, title, subtitle, description, status, sales, price_cents, created_at, category_id FROM products
                """).map { row in
                Product(id: try row.decode("id"), code: try row.decode("code"),
                        fields: try ["title", "subtitle", "description"].map { Self.fold(try row.decode($0, as: String.self)) },
                        onSale: try row.decode("status", as: String.self) == "on_sale", sales: try row.decode("sales"),
                        price: try row.decode("price_cents"), createdAt: try row.decode("created_at"),
                        category: try row.decode("category_id"))
            }
            var categories: [Int64: (name: [UInt8], parent: Int64?)] = [:]
            for row in try db.query("SELECT id, name, parent_id FROM categories") {
                categories[try row.decode("id")] = (Self.fold(try row.decode("name")), try row.decode("parent_id"))
            }
            return (products, categories)
        }
    }

    static func fold(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<start + needle.count].elementsEqual(needle) }
    }

    /// Whether the category or one of its ancestors has the folded name.
    private func isNamed(_ category: Int64, by query: [UInt8]) -> Bool {
        var current: Int64? = category
        while let id = current, let node = categories[id] {
            if node.name == query { return true }
            current = node.parent
        }
        return false
    }

    /// Codes of the on-sale products matching `query` (as typed: trimmed here like the shop
    /// does), in order. `sort` nil is relevance.
    func codes(_ query: String, sort: ProductSort? = nil, category: Int64? = nil, minPrice: Int64? = nil,
               maxPrice: Int64? = nil) -> [String] {
        let folded = Self.fold(query.trimmingCharacters(in: .whitespacesAndNewlines))
        let namesACategory = categories.values.contains { $0.name == folded }
        var ranked: [(product: Product, tier: Int)] = []
        for product in products where product.onSale {
            guard let field = product.fields.firstIndex(where: { Self.contains($0, folded) }) else { continue }
            if let category, !isWithin(product.category, category) { continue }
            if let minPrice, product.price < minPrice { continue }
            if let maxPrice, product.price > maxPrice { continue }
            let named = namesACategory && isNamed(product.category, by: folded)
            ranked.append((product, (namesACategory && !named ? 3 : 0) + field))
        }
        ranked.sort { a, b in
            switch sort {
            case nil, .relevance?:
                if a.tier != b.tier { return a.tier < b.tier }
                return (a.product.sales, a.product.id) > (b.product.sales, b.product.id)
            case .sales?: return (a.product.sales, a.product.id) > (b.product.sales, b.product.id)
            case .newest?: return (a.product.createdAt, a.product.id) > (b.product.createdAt, b.product.id)
            case .priceAscending?: return (a.product.price, a.product.id) < (b.product.price, b.product.id)
            case .priceDescending?: return (a.product.price, a.product.id) > (b.product.price, b.product.id)
            }
        }
        return ranked.map(\.product.code)
    }

    private func isWithin(_ category: Int64, _ ancestor: Int64) -> Bool {
        var current: Int64? = category
        while let id = current {
            if id == ancestor { return true }
            current = categories[id]?.parent
        }
        return false
    }
}

extension TestShop {
    /// Every match of a search, read page after page of `perPage`, as product codes; also checks
    /// that each page reports the same total and that the page after the last is empty.
    func searchAllPages(_ query: String, perPage: Int, sort: ProductSort? = nil, category: CategoryID? = nil,
                        minPrice: Int64? = nil, maxPrice: Int64? = nil) throws -> (codes: [String], totals: Set<Int>) {
        var ids: [ProductID] = []
        var totals = Set<Int>()
        var page = 1
        while true {
            let result = try catalogService.products(ProductQuery(categoryID: category, text: query, minPriceCents: minPrice,
                                                                  maxPriceCents: maxPrice, sort: sort,
                                                                  page: try PageRequest(page: page, perPage: perPage)), unlessAt: nil).current
            totals.insert(result.total)
            ids += result.items.map(\.id)
            if result.items.isEmpty || result.items.count < perPage { break }
            page += 1
        }
        let codes = try pool.read { db in try Self.codesByID(db) }
        return (ids.map { codes[$0] ?? "?" }, totals)
    }

    /// Every page of `query` (relevance) from one `search` (with or without its copy), as codes,
    /// and each page's total.
    func searchPages(_ query: String, perPage: Int, _ search: ProductSearch) throws -> (codes: [String], totals: Set<Int>) {
        var codes: [String] = []
        var totals = Set<Int>()
        try pool.read { db in
            let byID = try Self.codesByID(db)
            var page = 1
            while true {
                let request = try #require(CatalogStore.searchRequest(
                    ProductQuery(text: query, page: try PageRequest(page: page, perPage: perPage)), filters: [], order: nil))
                let found = try search.page(request, db)
                totals.insert(found.total)
                codes += found.ids.map { byID[$0] ?? "?" }
                if found.ids.count < perPage { break }
                page += 1
            }
        }
        return (codes, totals)
    }

    private static func codesByID(_ db: any SQLConnection) throws -> [ProductID: String] {
        try Dictionary(uniqueKeysWithValues: db.query("SELECT id, code FROM products").map {
            (try $0.decode("id", as: ProductID.self), try $0.decode("code", as: String.self))
        })
    }
}
