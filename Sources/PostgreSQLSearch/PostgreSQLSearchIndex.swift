import ShopCore
import SQL

/// Keeps `search_gram_sets` (with `search_gram_counts`) and `search_texts` (under a pg_trgm index)
/// in step with `products`: both hold on-sale products only.
///
/// Written in a few set-based statements: the server folds the texts from `products` and hands them
/// back; each product's grams (the one- and two-character strings, by Unicode scalar, each under
/// the first field holding it, exactly `SearchText.grams`) are cut here and sent as one array per
/// product, with their counts. (One row per gram and product under two B-trees, 2 million rows for
/// a 100,000-SKU import, was most of its time on PostgreSQL; one array per product enters the GIN
/// index in one sorted merge of its pending list. Cutting the grams on the server, 3.5 million
/// strings sorted per product, was then the import's largest statement.)
extension PostgreSQLSearch {
    public func reindex(_ products: [ProductID], _ db: any SQLConnection) throws {
        guard !products.isEmpty else { return }
        // One array parameter, whatever the count: `{1,2,3}`.
        let ids = "{" + products.map { String($0.rawValue) }.joined(separator: ",") + "}"
        try db.run("""
            WITH gone AS (DELETE FROM search_gram_sets WHERE product_id = ANY (CAST(\(ids) AS bigint[])) RETURNING grams)
            UPDATE search_gram_counts c SET products = c.products - d.products
            FROM (SELECT e AS element, COUNT(*) AS products FROM gone, unnest(gone.grams) AS e GROUP BY e) AS d
            WHERE c.element = d.element
            """)
        try db.run("DELETE FROM search_texts WHERE product_id = ANY (CAST(\(ids) AS bigint[]))")
        try write(where: "p.id = ANY (CAST(\(ids) AS bigint[]))", db)
    }

    /// `shop db copy`: the new database's `products` arrive without the index.
    public func rebuild(_ db: any SQLConnection) throws {
        try db.run("DELETE FROM search_gram_sets")
        try db.run("DELETE FROM search_gram_counts")
        try db.run("DELETE FROM search_texts")
        try write(where: "TRUE", db)
        try db.refreshStatistics(of: indexTables)
    }

    public var indexTables: [String] { ["search_gram_sets", "search_gram_counts", "search_texts"] }

    /// The folded texts and the grams of the on-sale products matching `condition` (on `p`), which
    /// have none yet.
    private func write(where condition: SQL, _ db: any SQLConnection) throws {
        // The server folds the texts (`search_fold`, as searches do) and hands them back: the grams
        // are cut here from exactly what `search_texts` holds.
        let texts = try db.query("""
            INSERT INTO search_texts (product_id, title, subtitle, description)
            SELECT p.id, search_fold(p.title), search_fold(p.subtitle), search_fold(p.description) FROM products p
            WHERE \(condition) AND p.status = \(ProductStatus.onSale)
            ORDER BY p.id
            RETURNING product_id, title, subtitle, description
            """)
        guard !texts.isEmpty else { return try Self.mergePending(db) }
        // Each product's elements (see migration 0042: the digit of the gram's first field, then
        // the gram), cut here and sent as one array literal per product, in product order, with
        // the number of products holding each element (a search's tier sizes). Cutting them on the
        // server (`substr` over every position, 3.5 million strings for a 100,000-SKU import,
        // sorted per product) was the largest statement of an import.
        var sets: [(id: Int64, literal: String)] = []
        sets.reserveCapacity(texts.count)
        var counts: [GramElement: Int64] = [:]
        var cutter = GramCutter()
        for row in texts {
            var set = ArrayLiteral()
            for element in cutter.elements(title: try row.decode("title"), subtitle: try row.decode("subtitle"),
                                           description: try row.decode("description")) {
                set.append(element)
                counts[element, default: 0] += 1
            }
            sets.append((try row.decode("product_id", as: Int64.self), set.text))
        }
        sets.sort { $0.id < $1.id }
        // Straight into the table: each literal is parsed once, as the row arrives.
        guard let copier = db as? any SQLBulkCopying else { throw SearchIndexNeedsCopy() }
        try copier.copy(into: "search_gram_sets", columns: ["product_id", "grams"],
                        rows: sets.map { [.integer($0.id), .text($0.literal)] })
        let elements = counts.keys.sorted()
        var countElements = ArrayLiteral()
        for element in elements { countElements.append(element) }
        let countList = "{" + elements.map { String(counts[$0]!) }.joined(separator: ",") + "}"
        try db.run("""
            INSERT INTO search_gram_counts (element, products)
            SELECT u.element, u.products
            FROM unnest(CAST(\(countElements.text) AS text[]), CAST(\(countList) AS bigint[])) AS u(element, products)
            ORDER BY u.element COLLATE "C"
            ON CONFLICT (element) DO UPDATE SET products = search_gram_counts.products + excluded.products
            """)
        try Self.mergePending(db)
    }

}

/// Cuts a product's `search_gram_sets` elements, in the order the server's `ARRAY(... ORDER BY
/// gram)` gave them (the gram's bytes, as `COLLATE "C"` sorts): every one- and two-scalar string
/// of its folded fields once, after the digit of the first field holding it (`SearchText.grams`).
/// A gram is at most two scalars of four UTF-8 bytes: it is keyed by its bytes packed high first
/// into a `UInt64`, whose order is the bytes' order (text holds no NUL, so the zero padding sorts a
/// gram before every longer gram it starts). One cutter serves many products, keeping its storage.
struct GramCutter {
    private var firstField: [UInt64: UInt8] = [:]
    private var starts: [Int] = []

    mutating func elements(title: String, subtitle: String, description: String) -> [GramElement] {
        firstField.removeAll(keepingCapacity: true)
        cut(title, field: 0)
        cut(subtitle, field: 1)
        cut(description, field: 2)
        return firstField.keys.sorted().map { GramElement(field: firstField[$0]!, gram: $0) }
    }

    private mutating func cut(_ text: String, field: UInt8) {
        let bytes = Array(SearchText.fold(text).utf8)
        // Where each scalar starts, and the end of the text.
        starts.removeAll(keepingCapacity: true)
        for (index, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 { starts.append(index) }
        starts.append(bytes.count)
        let digit = UInt8(ascii: "0") + field
        for scalar in 0..<(starts.count - 1) {
            for width in 1...2 where scalar + width < starts.count {
                var key: UInt64 = 0
                var shift: UInt64 = 56
                for index in starts[scalar]..<starts[scalar + width] {
                    key |= UInt64(bytes[index]) << shift
                    shift &-= 8
                }
                if firstField[key] == nil { firstField[key] = digit }
            }
        }
    }
}

/// One element of a `search_gram_sets` array: a field's digit and a gram packed high first
/// (`GramCutter`). Sorted as the element's bytes sort.
struct GramElement: Hashable, Comparable {
    let field: UInt8
    let gram: UInt64

    static func < (a: GramElement, b: GramElement) -> Bool { (a.field, a.gram) < (b.field, b.gram) }
}

extension PostgreSQLSearch {
    /// New rows of a GIN index wait in its pending list, which every search reads until a vacuum
    /// merges it (and the planner, seeing it, avoids the index): merge them now, once per batch of
    /// writes, far cheaper than entering each row into the index as it comes.
    private static func mergePending(_ db: any SQLConnection) throws {
        _ = try db.query("""
            SELECT gin_clean_pending_list(CAST('search_texts_trgm' AS regclass)) AS texts,
                   gin_clean_pending_list(CAST('search_gram_sets_grams' AS regclass)) AS grams
            """)
    }
}

/// The search index's writes stream the gram sets with `COPY`: a connection that cannot (none of
/// PostgreSQL's) is a programmer's error, reported rather than written another way.
struct SearchIndexNeedsCopy: Error, CustomStringConvertible {
    var description: String { "the PostgreSQL search index writes its gram sets with COPY, and this connection cannot" }
}

/// A PostgreSQL array literal of gram elements, each quoted (`"` and `\` escaped), so an
/// element may hold any character: `{"a","b c"}`.
struct ArrayLiteral {
    private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]

    /// Appends a gram element (its field's digit, then the gram's bytes, escaped) without building
    /// its bytes apart.
    mutating func append(_ element: GramElement) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(element.field)
        var rest = element.gram
        while rest != 0 {
            appendEscaped(UInt8(rest >> 56))
            rest <<= 8
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// One byte of a quoted element: `"` and `\` behind a backslash.
    private mutating func appendEscaped(_ byte: UInt8) {
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
        bytes.append(byte)
    }

    var closed: [UInt8] { bytes + [UInt8(ascii: "}")] }

    var text: String { String(decoding: closed, as: UTF8.self) }
}

