import Localization

/// The limits of a staff edit: the catalogue import's (`CatalogRowValidator`), so whatever staff
/// write, `shop products export` writes and `shop import catalog` reads back unchanged.
enum CatalogAdminRules {
    /// The largest price the import reads: 12 digits of yuan and 2 of fen.
    static let maxPriceCents: Int64 = 99_999_999_999_999
    static let maxStock: Int64 = 1_000_000
    static let maxImages = 20
    static let maxSKUs = 100
    static let maxCategoryDepth = 5
    static let maxCategoryName = 30

    /// A product or SKU code: 1 to 64 ASCII letters, digits, `-`, `_`, `.` (as sent: nothing is trimmed).
    static func code(_ raw: String, field: String) throws -> String {
        if raw.isEmpty { throw ValidationError(field, .empty) }
        if raw.unicodeScalars.count > 64 { throw ValidationError.tooLong(field, max: 64) }
        if !ImportText.isCode(raw) { throw ValidationError(field, .catalogCode) }
        return raw
    }

    /// Text of at most `max` code points as sent (what the OpenAPI document's maxLength counts),
    /// without control characters (line breaks and tabs allowed), then trimmed as the import trims.
    static func text(_ raw: String, field: String, max: Int, required: Bool = false) throws -> String {
        if raw.unicodeScalars.count > max { throw ValidationError.tooLong(field, max: max) }
        if ImportText.hasControlCharacters(raw) { throw ValidationError(field, .controlCharacters) }
        let value = ImportText.trimmed(raw)
        if required && value.trimmedInput.isEmpty { throw ValidationError(field, .empty) }
        return value
    }

    static func title(_ raw: String) throws -> String { try text(raw, field: "title", max: 100, required: true) }
    static func subtitle(_ raw: String) throws -> String { try text(raw, field: "subtitle", max: 200) }
    static func description(_ raw: String) throws -> String { try text(raw, field: "description", max: 5_000) }

    /// An http(s) URL or `/media/` path (or empty), without `|`, which separates a file's image list.
    static func url(_ raw: String, field: String) throws -> String {
        let value = ImportText.trimmed(raw)
        try Validate.optionalURL(value, field: field)
        if value.contains("|") { throw ValidationError(field, .url) }
        return value
    }

    static func images(_ raw: [String]) throws -> [String] {
        guard raw.count <= maxImages else { throw ValidationError("image_urls", .range, .range(0...maxImages)) }
        return try raw.enumerated().map { index, url in
            let value = try Self.url(url, field: "image_urls.\(index)")
            if value.isEmpty { throw ValidationError("image_urls.\(index)", .empty) }
            return value
        }
    }

    /// The object as the import stores it (canonical text), at most 4,000 characters.
    static func attributes(_ object: [String: JSONValue]) throws -> String {
        let text = JSONValue.canonicalText(object)
        if ImportText.isLonger(text, than: 4_000) { throw ValidationError.tooLong("attributes", max: 4_000) }
        return text
    }

    /// A SKU's name; empty is `默认`, the import's name for a product's only variant.
    static func skuName(_ raw: String, field: String) throws -> String {
        let value = try text(raw, field: field, max: 60)
        return value.isEmpty ? CatalogRowValidator.defaultSKUName : value
    }

    static func price(_ cents: Int64, field: String) throws -> Int64 {
        guard (0...maxPriceCents).contains(cents) else { throw ValidationError(field, .range, .range(0...maxPriceCents)) }
        return cents
    }

    static func stock(_ count: Int64, field: String) throws -> Int64 {
        guard (0...maxStock).contains(count) else { throw ValidationError(field, .wholeNumberInRange, .range(0...maxStock)) }
        return count
    }

    static func categoryName(_ raw: String) throws -> String {
        let value = ImportText.trimmed(raw)
        if value.trimmedInput.isEmpty || value.contains("/") || raw.unicodeScalars.count > maxCategoryName {
            throw ValidationError("name", .categoryName, ["max": .verbatim(String(maxCategoryName))])
        }
        if ImportText.hasControlCharacters(value) || value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" }) {
            throw ValidationError("name", .controlCharacters)
        }
        return value
    }

    /// Every field of a new product checked; SKU codes and names distinct within it.
    static func validated(_ new: NewProduct) throws -> NewProduct {
        var product = new
        product.code = try code(new.code, field: "code")
        product.title = try title(new.title)
        product.subtitle = try subtitle(new.subtitle)
        product.description = try description(new.description)
        product.coverURL = try url(new.coverURL, field: "cover_url")
        product.imageURLs = try images(new.imageURLs)
        _ = try attributes(new.attributes)
        guard !new.skus.isEmpty else { throw ValidationError("skus", .empty) }
        guard new.skus.count <= maxSKUs else { throw ValidationError("skus", .range, .range(1...maxSKUs)) }
        var codes = Set<String>(), names = Set<String>()
        product.skus = try new.skus.enumerated().map { index, sku in
            let field = "skus.\(index)"
            let validated = NewSKU(code: try code(sku.code, field: "\(field).code"), name: try skuName(sku.name, field: "\(field).name"),
                                   priceCents: try price(sku.priceCents, field: "\(field).price_cents"),
                                   originalPriceCents: try price(sku.originalPriceCents ?? sku.priceCents, field: "\(field).original_price_cents"),
                                   stock: try stock(sku.stock, field: "\(field).stock"))
            guard codes.insert(validated.code).inserted else { throw CatalogAdminError.skuCodeTaken(validated.code, field: "\(field).code") }
            guard names.insert(validated.name).inserted else { throw ValidationError("\(field).name", .oneOf, ["choices": distinctNames]) }
            return validated
        }
        return product
    }

    /// What `oneOf` shows for a SKU name another SKU of the product has.
    static let distinctNames = LocalizedText(zh: "同一商品中其他规格没有用过的名称", en: "a name no other SKU of the product has")
}
