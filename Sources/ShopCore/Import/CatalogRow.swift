import Crypto
import Foundation

/// One valid SKU row of a catalogue file.
struct CatalogRow: Sendable, Equatable {
    let line: Int
    let productCode: String
    let skuCode: String
    let skuName: String
    let title: String
    let subtitle: String
    let categoryPath: [String]
    let priceCents: Int64
    let originalPriceCents: Int64
    let stock: Int64
    let description: String
    let coverURL: String
    let imageURLs: [String]
    /// Canonical JSON text of the attributes object.
    let attributes: String
    let status: ProductStatus
    /// The SKU's own sale status; nil (the column missing or empty) keeps an existing SKU's and
    /// puts a new one on sale, so files written before the column existed change no SKU's status.
    let skuStatus: ProductStatus?
    /// `same_day` (the default when the column is missing or empty) or `next_day`.
    let delivery: DeliveryKind
}

/// Checks one raw record against the columns of API.md; every problem becomes an `ImportIssue`.
struct CatalogRowValidator {
    static let columns = ["product_code", "sku_code", "sku_name", "title", "subtitle", "category", "price",
                          "original_price", "stock", "description", "cover_url", "image_urls", "attributes", "status", "delivery", "sku_status"]
    static let required: Set<String> = ["product_code", "sku_code", "title", "category", "price", "stock"]
    /// The name of a SKU whose row gives none: a product with one variant needs no variant name.
    static let defaultSKUName = "默认"

    /// A raw record: its fields and where each column is among them (shared by every record of
    /// a CSV file, so 100k records do not carry 100k dictionaries).
    struct Raw {
        let line: Int
        let positions: [String: Int]
        let fields: [String]

        init(line: Int, positions: [String: Int], fields: [String]) {
            self.line = line
            self.positions = positions
            self.fields = fields
        }

        /// A record from named values (JSON lines).
        init(line: Int, values: [String: String]) {
            let names = Array(values.keys)
            self.init(line: line, positions: Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }),
                      fields: names.map { values[$0] ?? "" })
        }

        /// The value of a column, nil when the file has no such column.
        subscript(_ column: String) -> String? {
            positions[column].map { fields[$0] }
        }
    }

    /// `images` turns local image paths into `/media/` URLs; without it they are refused.
    static func validate(_ raw: Raw, attributes cache: inout AttributesCache, images: LocalImages?) -> Result<CatalogRow, RowIssues> {
        var issues: [ImportIssue] = []
        func fail(_ column: String, _ reason: String) { issues.append(ImportIssue(line: raw.line, column: column, reason: reason)) }
        func text(_ column: String, max: Int, required: Bool = false) -> String {
            let value = ImportText.trimmed(raw[column] ?? "")
            if required && value.isEmpty { fail(column, "is required") }
            else if ImportText.isLonger(value, than: max) { fail(column, "is longer than \(max) characters") }
            else if ImportText.hasControlCharacters(value) { fail(column, "contains control characters") }
            return value
        }
        func code(_ column: String) -> String {
            let value = text(column, max: 64, required: true)
            if !value.isEmpty && !ImportText.isCode(value) {
                fail(column, "may hold only ASCII letters, digits, '-', '_' and '.'")
            }
            return value
        }
        /// The URL to store: an http(s) URL or /media/ path as given, a local file's /media/ name.
        func image(_ column: String, _ value: String) -> String {
            let lower = value.lowercased()
            guard !value.isEmpty else {
                fail(column, "has an empty entry (two | in a row, or one at an end)")
                return value
            }
            if MediaPath.segments(of: value) != nil { return value }
            if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
                if ImportText.hasWhitespace(value) || ImportText.isLonger(value, than: 512) {
                    fail(column, "\"\(value.prefix(40))\" is not an http(s) URL, a /media/ path or a local image file")
                }
                return value
            }
            guard let images, LocalImages.isLocalPath(value) else {
                fail(column, "\"\(value.prefix(40))\" is not an http(s) URL, a /media/ path or a local image file")
                return value
            }
            switch images.mediaURL(for: value) {
            case .success(let url): return url
            case .failure(let problem):
                fail(column, problem.reason)
                return value
            }
        }

        let productCode = code("product_code")
        let skuCode = code("sku_code")
        let givenSKUName = text("sku_name", max: 60)
        let skuName = givenSKUName.isEmpty ? Self.defaultSKUName : givenSKUName
        let title = text("title", max: 100, required: true)
        let subtitle = text("subtitle", max: 200)
        let description = text("description", max: 5_000)

        let categoryText = text("category", max: 200, required: true)
        let categoryPath = categoryText.split(separator: "/", omittingEmptySubsequences: false)
            .map { ImportText.trimmed(String($0)) }
        if !categoryText.isEmpty {
            if categoryPath.contains(where: \.isEmpty) { fail("category", "has an empty level (write it like 花束/玫瑰)") }
            else if categoryPath.count > 5 { fail("category", "is deeper than 5 levels") }
            else if categoryPath.contains(where: { ImportText.isLonger($0, than: 30) }) { fail("category", "has a level longer than 30 characters") }
        }

        let priceText = text("price", max: 20, required: true)
        let price = Money.cents(fromYuan: priceText)
        if !priceText.isEmpty && price == nil {
            fail("price", "\"\(priceText)\" is not an amount in yuan with at most two decimals (e.g. 129.00)")
        }
        let originalText = text("original_price", max: 20)
        var original = price
        if !originalText.isEmpty {
            original = Money.cents(fromYuan: originalText)
            if original == nil {
                fail("original_price", "\"\(originalText)\" is not an amount in yuan with at most two decimals (e.g. 159.00)")
            }
        }

        let stockText = text("stock", max: 10, required: true)
        // digits only (an optional '-' is read so that it can be reported as negative); no '+', no spaces
        let unsigned = stockText.hasPrefix("-") ? stockText.dropFirst() : Substring(stockText)
        let stock = unsigned.isASCIIDigits ? Int64(stockText) : nil
        if !stockText.isEmpty {
            if let stock {
                if stock < 0 { fail("stock", "must not be negative") } else if stock > 1_000_000 { fail("stock", "must be at most 1000000") }
            } else {
                fail("stock", "\"\(stockText)\" is not a whole number")
            }
        }

        let coverText = text("cover_url", max: 512)
        let coverURL = coverText.isEmpty ? "" : image("cover_url", coverText)
        let imagesText = text("image_urls", max: 8_000)
        let imageTexts = imagesText.isEmpty ? [] : imagesText.split(separator: "|", omittingEmptySubsequences: false)
            .map { ImportText.trimmed(String($0)) }
        if imageTexts.count > 20 { fail("image_urls", "has more than 20 images") }
        let imageURLs = imageTexts
            .map { image("image_urls", $0) }

        let attributesText = text("attributes", max: 4_000)
        var attributes = "{}"
        if !attributesText.isEmpty {
            if let canonical = cache.canonicalText(of: attributesText) {
                attributes = canonical
            } else {
                fail("attributes", "is not a JSON object")
            }
        }

        let statusText = text("status", max: 20)
        let status = statusText.isEmpty ? .onSale : ProductStatus(rawValue: statusText)
        if status == nil { fail("status", "must be on_sale or off_sale, not \"\(statusText)\"") }

        let deliveryText = text("delivery", max: 20)
        let delivery = deliveryText.isEmpty ? .sameDay : DeliveryKind(rawValue: deliveryText)
        if delivery == nil { fail("delivery", "must be same_day or next_day, not \"\(deliveryText)\"") }

        let skuStatusText = text("sku_status", max: 20)
        let skuStatus = skuStatusText.isEmpty ? nil : ProductStatus(rawValue: skuStatusText)
        if !skuStatusText.isEmpty && skuStatus == nil { fail("sku_status", "must be on_sale or off_sale, not \"\(skuStatusText)\"") }

        guard issues.isEmpty, let price, let original, let stock, let status, let delivery else {
            return .failure(RowIssues(issues: issues))
        }
        return .success(CatalogRow(line: raw.line, productCode: productCode, skuCode: skuCode, skuName: skuName, title: title,
                                   subtitle: subtitle, categoryPath: categoryPath, priceCents: price,
                                   originalPriceCents: original, stock: stock, description: description, coverURL: coverURL,
                                   imageURLs: imageURLs, attributes: attributes, status: status, skuStatus: skuStatus,
                                   delivery: delivery))
    }
}

/// The canonical text of the attributes objects seen lately: the rows of one product repeat the
/// same text, and parsing JSON is most of what checking a row costs.
struct AttributesCache {
    static let capacity = 1_024
    private var canonical: [String: String?] = [:]

    /// The canonical text of `text`'s JSON object, nil when it is not one.
    mutating func canonicalText(of text: String) -> String? {
        if let known = canonical[text] { return known }
        if canonical.count >= Self.capacity { canonical.removeAll(keepingCapacity: true) }
        let result = JSONValue.object(parsing: text).map(JSONValue.canonicalText)
        canonical[text] = .some(result)
        return result
    }
}

/// The problems of one row.
struct RowIssues: Error {
    let issues: [ImportIssue]
}
