import Foundation
import HTTP
import Localization
import ShopAPI
import ShopCore

/// `shop products list`: every product (on sale or not) with its SKUs, prices and stock.
struct ProductsListCommand: Command {
    let path = ["products", "list"]
    let valuedOptions: Set<String> = ["q", "status", "low-stock", "category", "format"]
    let summary = "list products and their SKUs, on sale or not, with prices and stock"
    let usage = """
        Usage: shop products list [--q TEXT] [--status on_sale|off_sale] [--low-stock N] [--category PATH]
                                  [--format table|csv|json] [--config PATH]

        One line per SKU, newest products first. --q matches part of a title, a product code or a SKU
        code; --low-stock N keeps the products with a SKU that has at most N left; --category PATH
        (花束/玫瑰) that category and those under it. --format csv prints CSV (UTF-8 with a byte order
        mark, CRLF) and json the products as /api/v1/admin/products answers them, for scripts.
        Prices are in yuan.
        """

    enum Format: String { case table, csv, json }

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: valuedOptions.union(["config"]))
        guard let format = Format(rawValue: arguments.option("format") ?? "table") else {
            throw UsageError(description: say(zh: "--format 必须是 table、csv 或 json", en: "--format must be table, csv or json"))
        }
        var query = AdminProductQuery(text: arguments.option("q"), page: try PageRequest(page: 1, perPage: 100))
        if let text = arguments.option("status") {
            guard let status = ProductStatus(rawValue: text) else {
                throw UsageError(description: say(zh: "--status 必须是 on_sale 或 off_sale", en: "--status must be on_sale or off_sale"))
            }
            query.status = status
        }
        if let text = arguments.option("low-stock") {
            guard let low = Int64(text), low >= 0 else {
                throw UsageError(description: say(zh: "--low-stock 必须是不小于 0 的整数", en: "--low-stock must be a whole number, 0 or more"))
            }
            query.lowStock = low
        }
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let admin = shop.catalogAdmin
        let products: [AdminProduct] = try CatalogFailure.reporting {
            if let path = arguments.option("category") { query.categoryID = try admin.category(path: path).id }
            var all: [AdminProduct] = []
            while true {
                let page = try admin.products(query)
                all += page.items
                if page.items.isEmpty || all.count >= page.total { return all }
                query.page = try PageRequest(page: query.page.page + 1, perPage: 100)
            }
        }
        switch format {
        case .json:
            print(String(decoding: try JSON.encode(products.map(AdminProductResponse.init)), as: UTF8.self))
        case .csv:
            print(CSV.render(header: Self.header, rows: Self.rows(products)), terminator: "")
        case .table:
            print(Table.render(header: Self.header, rows: Self.rows(products)))
            let skus = products.reduce(0) { $0 + $1.skus.count }
            print(say(zh: "共 \(products.count) 个商品，\(skus) 个规格", en: "\(products.count) product\(products.count == 1 ? "" : "s"), \(skus) SKU\(skus == 1 ? "" : "s")"))
        }
        return 0
    }

    static let header = ["PRODUCT", "SKU", "TITLE", "SKU NAME", "CATEGORY", "STATUS", "SKU STATUS", "PRICE", "ORIGINAL", "STOCK"]

    static func rows(_ products: [AdminProduct]) -> [[String]] {
        products.flatMap { product in
            product.skus.map { sku in
                [product.code, sku.code, product.title, sku.name, product.categoryPath, product.status.rawValue, sku.status.rawValue,
                 Money.yuan(fromCents: sku.priceCents), Money.yuan(fromCents: sku.originalPriceCents), String(sku.stock)]
            }
        }
    }
}

/// `shop products set SKU_CODE`: one SKU's price or stock, or the SKU on or off sale; audited.
struct ProductsSetCommand: Command {
    let path = ["products", "set"]
    let valuedOptions: Set<String> = ["price", "original-price", "stock", "status"]
    let summary = "change a SKU's price or stock, or take the SKU on or off sale"
    let usage = """
        Usage: shop products set SKU_CODE [--price YUAN] [--original-price YUAN] [--stock N]
                                 [--status on_sale|off_sale] [--config PATH]

        Changes only what is given (at least one): --price and --original-price in yuan with at
        most two decimals (129 or 129.90), --stock the number on hand (0 to 1000000), --status the
        SKU's own sale status (its product's other SKUs stay as they are; a whole product goes on
        or off sale with the import's status column or PATCH /admin/products/{id}). Buyers see the
        change at once. The change is written to the audit log as cli:$USER. Prints the SKU as it
        is now.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: valuedOptions.union(["config"]), positionals: 1)
        var changes = SKUChanges()
        for (option, keyPath) in [("price", \SKUChanges.priceCents), ("original-price", \SKUChanges.originalPriceCents)] {
            guard let text = arguments.option(option) else { continue }
            guard let cents = Money.cents(fromYuan: text) else {
                throw UsageError(description: say(zh: "--\(option) 必须是最多两位小数的元金额，如 129 或 129.90",
                                                  en: "--\(option) must be an amount of yuan with at most 2 decimals, e.g. 129 or 129.90"))
            }
            changes[keyPath: keyPath] = cents
        }
        if let text = arguments.option("stock") {
            guard let stock = Int64(text), text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw UsageError(description: say(zh: "--stock 必须是不小于 0 的整数", en: "--stock must be a whole number, 0 or more"))
            }
            changes.stock = .set(stock)
        }
        if let text = arguments.option("status") {
            guard let status = ProductStatus(rawValue: text) else {
                throw UsageError(description: say(zh: "--status 必须是 on_sale 或 off_sale", en: "--status must be on_sale or off_sale"))
            }
            changes.status = status
        }
        guard changes != SKUChanges() else {
            throw UsageError(description: say(zh: "请至少给出 --price、--original-price、--stock 或 --status 之一",
                                              en: "give at least one of --price, --original-price, --stock or --status"))
        }
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let code = arguments.positionals[0]
        let updated = try CatalogFailure.reporting(sku: code) { try shop.catalogAdmin.updateSKU(code: code, changes, by: Operator.actor) }
        let product = try shop.catalogAdmin.product(updated.productID)
        print(Table.render(header: ProductsListCommand.header, rows: ProductsListCommand.rows([product]).filter { $0[1] == updated.sku.code }))
        return 0
    }
}

/// `shop products export FILE`: the catalogue in the import's columns.
struct ProductsExportCommand: Command {
    let path = ["products", "export"]
    let summary = "write every product and SKU to a CSV file in the import's columns"
    let usage = """
        Usage: shop products export FILE [--config PATH]

        Writes one row per SKU, on sale or not, with the columns `shop import catalog` reads
        (product_code, sku_code, sku_name, title, subtitle, category, price, original_price, stock,
        description, cover_url, image_urls, attributes, status, delivery, sku_status): edit it in a spreadsheet
        and import it back; importing it unedited changes nothing. UTF-8 with a byte order mark,
        RFC 4180, CRLF. FILE is replaced if it exists.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], positionals: 1)
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let file = arguments.positionals[0]
        guard FileManager.default.createFile(atPath: file, contents: nil), let handle = FileHandle(forWritingAtPath: file) else {
            throw CommandFailure(description: say(zh: "无法写入 \(ShopEnvironment.absolute(file))", en: "cannot write \(ShopEnvironment.absolute(file))"))
        }
        defer { try? handle.close() }
        let written = try CatalogExport(pool: shop.pool).csv { text in try handle.write(contentsOf: Data(text.utf8)) }
        print(say(zh: "已导出 \(written.products) 个商品、\(written.skus) 个规格到 \(file)",
                  en: "exported \(written.products) product\(written.products == 1 ? "" : "s") and \(written.skus) SKU\(written.skus == 1 ? "" : "s") to \(file)"))
        return 0
    }
}

/// Catalogue errors worded for an operator (exit 1).
enum CatalogFailure {
    static func reporting<T>(sku: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ValidationError {
            throw CommandFailure(description: error.message[.ofTerminal])
        } catch let error as CatalogError {
            switch error {
            case .categoryNotFound: throw CommandFailure(description: say(zh: "没有这个分类", en: "no such category"))
            case .productNotFound: throw CommandFailure(description: say(zh: "没有这个商品", en: "no such product"))
            case .tooManySearches: throw CommandFailure(description: "\(error)")
            }
        } catch let error as CatalogAdminError {
            throw CommandFailure(description: describe(error, sku: sku))
        }
    }

    static func describe(_ error: CatalogAdminError, sku: String?) -> String {
        switch error {
        case .skuNotFound: say(zh: "没有编码为 \(sku ?? "") 的规格", en: "no SKU has the code \(sku ?? "")")
        case .stockBelowZero(let stock, let delta): say(zh: "库存只有 \(stock)，不能减少 \(-delta)", en: "only \(stock) in stock; cannot take \(-delta)")
        case .categoryExists(let path): say(zh: "分类 \(path) 已存在", en: "a category \(path) exists already")
        case .categoryNotEmpty(let products, let children, let coupons):
            say(zh: "分类里还有 \(products) 个商品、\(children) 个子分类、\(coupons) 张优惠券：先移走它们",
                en: "the category still holds \(products) product(s), \(children) categor(ies) and \(coupons) coupon(s): move them first")
        case .categoryCycle: say(zh: "不能把分类移到它自己或它的子分类下", en: "a category cannot move under itself or a category under it")
        case .categoryTooDeep(let max): say(zh: "分类最多 \(max) 层", en: "categories are at most \(max) levels deep")
        case .unknownCategory: say(zh: "没有这个分类", en: "no such category")
        case .productCodeTaken(let code): say(zh: "商品编码 \(code) 已存在", en: "a product has the code \(code) already")
        case .skuCodeTaken(let code, _): say(zh: "规格编码 \(code) 已存在", en: "a SKU has the code \(code) already")
        }
    }
}
