import Foundation
import SQL

/// `shop products export FILE`: the whole catalogue as a file of the import's columns
/// (`CatalogRowValidator.columns`), one row per SKU, so `shop import catalog` of it changes nothing.
/// CSV as RFC 4180 writes it, UTF-8 behind a byte order mark (Excel in Chinese reads it right, the
/// import skips it), CRLF line ends; no cell is altered (no apostrophe before a `=`): the file is
/// for the import to read back byte for byte.
public struct CatalogExport: Sendable {
    let pool: any Database
    private let store = CatalogAdminStore()

    public init(pool: any Database) { self.pool = pool }

    /// Writes the file a piece at a time to `write`; answers the products and SKUs written.
    @discardableResult
    public func csv(_ write: (String) throws -> Void) throws -> (products: Int, skus: Int) {
        let products = try pool.read { db in try store.allProducts(db) }
        try write("\u{FEFF}" + Self.line(CatalogRowValidator.columns))
        var skus = 0
        for product in products {
            let images = product.imageURLs.joined(separator: "|")
            let attributes = JSONValue.canonicalText(product.attributes)
            for sku in product.skus.sorted(by: { $0.code < $1.code }) {
                try write(Self.line([
                    product.code, sku.code, sku.name, product.title, product.subtitle, product.categoryPath,
                    Money.yuan(fromCents: sku.priceCents), Money.yuan(fromCents: sku.originalPriceCents), String(sku.stock),
                    product.description, product.coverURL, images, attributes, product.status.rawValue, product.delivery.rawValue,
                    sku.status.rawValue,
                ]))
                skus += 1
            }
        }
        return (products.count, skus)
    }

    /// One record: a field is quoted when it holds a comma, quote, CR or LF (quotes doubled).
    static func line(_ fields: [String]) -> String {
        fields.map { field in
            guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else {
                return field
            }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }
}
