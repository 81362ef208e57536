import SQL

/// The catalogue import's writes on an engine that can stream rows (`SQLBulkCopying`: PostgreSQL):
/// the valid rows are copied into a temporary staging table as they are read (`COPY`, a few
/// thousand rows per stream), and `apply` then writes them with a fixed number of set-based
/// statements, whatever the file's size, in the import's own transaction. Batches of lookups and
/// multi-row INSERTs (`CatalogWriteStore`, still SQLite's path) cost PostgreSQL a round trip and a
/// plan per 256 rows and a row trigger per SKU update; here the server joins whole tables.
///
/// It decides exactly as the batched path does (`CatalogImportSession`): a product's fields come
/// from its first valid row; an existing product or SKU whose fields are all equal is unchanged,
/// text compared as Swift's `==` compares it (canonical equivalence: both sides in NFC); a SKU
/// without `sku_status` keeps its status, a new one goes on sale; categories are created in the
/// order their products first appear; products and SKUs get their ids in file order; only
/// products whose title, subtitle, description or status changed (byte for byte) are reindexed.
struct StagedCatalogWrite {
    /// Rows per `COPY`: the staging of a file is a few streams, each a bounded buffer.
    static let rowsPerCopy = 5_000

    /// The staging table's columns, in the order `append` gives the values.
    static let columns = ["line", "product_code", "sku_code", "sku_name", "title", "subtitle", "category", "price_cents",
                          "original_price_cents", "stock", "description", "cover_url", "images", "attributes", "status",
                          "sku_status", "delivery"]

    private let db: any SQLBulkCopying
    private let store = CatalogWriteStore()
    private var pending: [[SQLValue]] = []
    private var staged = false

    init(db: any SQLBulkCopying) {
        self.db = db
    }

    /// Queues a valid row for the staging table, copying a full batch.
    mutating func append(_ row: CatalogRow) throws {
        pending.append([
            .integer(Int64(row.line)), .text(row.productCode), .text(row.skuCode), .text(row.skuName), .text(row.title),
            .text(row.subtitle), .text(row.categoryPath.joined(separator: "/")), .integer(row.priceCents),
            .integer(row.originalPriceCents), .integer(row.stock), .text(row.description), .text(row.coverURL),
            // The validator splits image_urls on `|` and refuses an empty entry: no URL holds one.
            .text(row.imageURLs.joined(separator: "|")), .text(row.attributes), .text(row.status.rawValue),
            row.skuStatus.map { .text($0.rawValue) } ?? .null, .text(row.delivery.rawValue),
        ])
        if pending.count >= Self.rowsPerCopy { try copyPending() }
    }

    /// Forgets rows not yet copied (the import is doomed: nothing of it will be written).
    mutating func discardPending() {
        pending.removeAll()
    }

    /// Temporary tables of this transaction only (`ON COMMIT DROP`; a rollback drops them too).
    private mutating func createStagingTables() throws {
        guard !staged else { return }
        try db.execute(script: """
            DROP TABLE IF EXISTS pg_temp.catalog_import_rows, pg_temp.catalog_import_products, pg_temp.catalog_import_skus;
            CREATE TEMPORARY TABLE catalog_import_rows (
                line BIGINT NOT NULL, product_code TEXT NOT NULL, sku_code TEXT NOT NULL, sku_name TEXT NOT NULL,
                title TEXT NOT NULL, subtitle TEXT NOT NULL, category TEXT NOT NULL, price_cents BIGINT NOT NULL,
                original_price_cents BIGINT NOT NULL, stock BIGINT NOT NULL, description TEXT NOT NULL,
                cover_url TEXT NOT NULL, images TEXT NOT NULL, attributes TEXT NOT NULL, status TEXT NOT NULL,
                sku_status TEXT, delivery TEXT NOT NULL
            ) ON COMMIT DROP;
            CREATE TEMPORARY TABLE catalog_import_products (
                code TEXT PRIMARY KEY, line BIGINT NOT NULL, id BIGINT, category_id BIGINT, title TEXT NOT NULL,
                subtitle TEXT NOT NULL, description TEXT NOT NULL, cover_url TEXT NOT NULL, images TEXT NOT NULL,
                attributes TEXT NOT NULL, status TEXT NOT NULL, delivery TEXT NOT NULL, action TEXT NOT NULL,
                text_changed BOOLEAN NOT NULL
            ) ON COMMIT DROP;
            CREATE TEMPORARY TABLE catalog_import_skus (
                line BIGINT NOT NULL, code TEXT NOT NULL, id BIGINT, product_id BIGINT NOT NULL, name TEXT NOT NULL,
                price_cents BIGINT NOT NULL, original_price_cents BIGINT NOT NULL, stock BIGINT NOT NULL,
                status TEXT NOT NULL, action TEXT NOT NULL
            ) ON COMMIT DROP;
            """)
        staged = true
    }

    private mutating func copyPending() throws {
        guard !pending.isEmpty else { return }
        try createStagingTables()
        try db.copy(into: "catalog_import_rows", columns: Self.columns, rows: pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes the staged rows; adds what it created, updated and left unchanged to `summary`, and
    /// answers the products whose search text or sale status changed (new ones included).
    mutating func apply(keepExisting: Bool, now: Int64, summary: inout ImportSummary) throws -> [ProductID] {
        try copyPending()
        guard staged else { return [] }
        try db.refreshStatistics(of: ["pg_temp.catalog_import_rows"])

        // Categories, in the order their products' first rows come (the batched path's order, so
        // the same ids and positions), skipping products `keepExisting` leaves alone.
        let paths = try db.query("""
            SELECT f.category FROM (
                SELECT DISTINCT ON (product_code) product_code, line, category FROM catalog_import_rows
                ORDER BY product_code, line
            ) AS f
            WHERE \(keepExisting ? 0 : 1) = 1 OR NOT EXISTS (SELECT 1 FROM products p WHERE p.code = f.product_code)
            GROUP BY f.category ORDER BY MIN(f.line)
            """)
        for row in paths {
            let path: String = try row.decode("category")
            _ = try store.ensureCategory(path.split(separator: "/", omittingEmptySubsequences: false).map(String.init), db)
        }

        // Each product's first row, what exists under its code, and what to do with it.
        try db.run("""
            INSERT INTO catalog_import_products (code, line, id, category_id, title, subtitle, description, cover_url, images,
                                                 attributes, status, delivery, action, text_changed)
            SELECT f.product_code, f.line, p.id, c.id, f.title, f.subtitle, f.description, f.cover_url, f.images,
                   f.attributes, f.status, f.delivery,
                   CASE WHEN p.id IS NULL THEN 'create'
                        WHEN \(keepExisting ? 1 : 0) = 1 THEN 'unchanged'
                        WHEN p.category_id = c.id AND p.status = f.status AND p.delivery = f.delivery
                             AND normalize(p.title, NFC) = normalize(f.title, NFC)
                             AND normalize(p.subtitle, NFC) = normalize(f.subtitle, NFC)
                             AND normalize(p.description, NFC) = normalize(f.description, NFC)
                             AND normalize(p.cover_url, NFC) = normalize(f.cover_url, NFC)
                             AND normalize(p.attributes, NFC) = normalize(f.attributes, NFC)
                             AND ARRAY(SELECT normalize(i.url, NFC) FROM product_images i WHERE i.product_id = p.id
                                       ORDER BY i.position)
                                 = ARRAY(SELECT normalize(u.url, NFC) FROM unnest(string_to_array(f.images, '|'))
                                         WITH ORDINALITY AS u(url, n) ORDER BY u.n)
                        THEN 'unchanged'
                        ELSE 'update' END,
                   p.id IS NULL OR p.status <> f.status OR p.title <> f.title OR p.subtitle <> f.subtitle
                       OR p.description <> f.description
            FROM (SELECT DISTINCT ON (product_code) * FROM catalog_import_rows ORDER BY product_code, line) AS f
            LEFT JOIN products p ON p.code = f.product_code
            LEFT JOIN categories c ON c.path = f.category
            """)
        try db.run("""
            UPDATE products p SET category_id = i.category_id, title = i.title, subtitle = i.subtitle,
                description = i.description, cover_url = i.cover_url, attributes = i.attributes, status = i.status,
                delivery = i.delivery, updated_at = \(now)
            FROM catalog_import_products i WHERE i.id = p.id AND i.action = 'update'
            """)
        try db.run("""
            DELETE FROM product_images WHERE product_id IN (SELECT id FROM catalog_import_products WHERE action = 'update')
            """)
        // A new product gets at once the list price, original price and total stock that the SKUs'
        // insert trigger would give it (products_refresh_from_skus, which then finds nothing to
        // write: 0045): its SKUs are its rows of the file, except existing SKUs that
        // `keepExisting` leaves with their product; the cheapest on sale first (any when none is),
        // then by id, an existing SKU's id coming before the new ones, which get theirs in file
        // order. Were these values ever off, that trigger would still write the right ones.
        try db.run("""
            INSERT INTO products (code, category_id, title, subtitle, description, cover_url, attributes, status, delivery,
                                  price_cents, original_price_cents, total_stock, created_at, updated_at)
            SELECT i.code, i.category_id, i.title, i.subtitle, i.description, i.cover_url, i.attributes, i.status, i.delivery,
                   COALESCE(f.first[2], 0), COALESCE(f.first[5], 0), COALESCE(f.total_stock, 0), \(now), \(now)
            FROM catalog_import_products i
            LEFT JOIN (
                -- The least (off sale, price, id, line) of each product's SKUs, with its original
                -- price, found by hashing, not sorting: new SKUs have no id yet and come last.
                SELECT k.product_code,
                       MIN(ARRAY[CASE WHEN k.status = 'on_sale' THEN 0 ELSE 1 END, k.price_cents,
                                 COALESCE(k.id, 9223372036854775807), k.line, k.original_price_cents]) AS first,
                       SUM(CASE WHEN k.status = 'on_sale' THEN k.stock ELSE 0 END) AS total_stock
                FROM (SELECT r.product_code, r.price_cents, r.original_price_cents, r.stock, r.line, s.id,
                             COALESCE(r.sku_status, s.status, 'on_sale') AS status
                      FROM catalog_import_rows r
                      JOIN catalog_import_products c ON c.code = r.product_code AND c.action = 'create'
                      LEFT JOIN skus s ON s.code = r.sku_code
                      WHERE \(keepExisting ? 0 : 1) = 1 OR s.id IS NULL) AS k
                GROUP BY k.product_code
            ) AS f ON f.product_code = i.code
            WHERE i.action = 'create' ORDER BY i.line
            """)
        try db.run("""
            UPDATE catalog_import_products i SET id = p.id FROM products p WHERE p.code = i.code AND i.action = 'create'
            """)
        try db.run("""
            INSERT INTO product_images (product_id, position, url)
            SELECT i.id, u.n - 1, u.url FROM catalog_import_products i
            CROSS JOIN LATERAL unnest(string_to_array(i.images, '|')) WITH ORDINALITY AS u(url, n)
            WHERE i.action IN ('create', 'update') ORDER BY 1, 2
            """)

        // Each SKU row with the SKU under its code, and what to do with it.
        try db.run("""
            INSERT INTO catalog_import_skus (line, code, id, product_id, name, price_cents, original_price_cents, stock, status,
                                             action)
            SELECT r.line, r.sku_code, s.id, i.id, r.sku_name, r.price_cents, r.original_price_cents, r.stock,
                   COALESCE(r.sku_status, s.status, 'on_sale'),
                   CASE WHEN s.id IS NULL THEN 'create'
                        WHEN \(keepExisting ? 1 : 0) = 1 THEN 'unchanged'
                        WHEN s.product_id = i.id AND normalize(s.name, NFC) = normalize(r.sku_name, NFC)
                             AND s.price_cents = r.price_cents AND s.original_price_cents = r.original_price_cents
                             AND s.stock = r.stock AND s.status = COALESCE(r.sku_status, s.status)
                        THEN 'unchanged'
                        ELSE 'update' END
            FROM catalog_import_rows r
            JOIN catalog_import_products i ON i.code = r.product_code
            LEFT JOIN skus s ON s.code = r.sku_code
            """)
        try db.run("""
            UPDATE skus s SET product_id = k.product_id, name = k.name, price_cents = k.price_cents,
                original_price_cents = k.original_price_cents, stock = k.stock, status = k.status, updated_at = \(now)
            FROM catalog_import_skus k WHERE k.id = s.id AND k.action = 'update'
            """)
        try db.run("""
            INSERT INTO skus (product_id, code, name, price_cents, original_price_cents, stock, status, created_at, updated_at)
            SELECT product_id, code, name, price_cents, original_price_cents, stock, status, \(now), \(now)
            FROM catalog_import_skus WHERE action = 'create' ORDER BY line
            """)

        for row in try db.query("""
            SELECT 0 AS kind, action, COUNT(*) AS n FROM catalog_import_products GROUP BY action
            UNION ALL
            SELECT 1 AS kind, action, COUNT(*) AS n FROM catalog_import_skus GROUP BY action
            """) {
            let kind: Int64 = try row.decode("kind")
            let action: String = try row.decode("action")
            let count = Int(try row.decode("n", as: Int64.self))
            switch (kind, action) {
            case (0, "create"): summary.products.created += count
            case (0, "update"): summary.products.updated += count
            case (0, _): summary.products.unchanged += count
            case (_, "create"): summary.skus.created += count
            case (_, "update"): summary.skus.updated += count
            default: summary.skus.unchanged += count
            }
        }
        return try db.query("""
            SELECT id FROM catalog_import_products
            WHERE action = 'create' OR (action = 'update' AND text_changed) ORDER BY line
            """).map { try $0.decode("id", as: ProductID.self) }
    }
}
