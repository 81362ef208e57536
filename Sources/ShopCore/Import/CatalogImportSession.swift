import SQL

/// One run of the catalogue import inside its write transaction: takes the file's records in
/// order, validates each, and writes the valid ones a batch at a time. It keeps only what the
/// all-or-nothing rule needs (each SKU code's first line, each product's SKU names, each
/// product's id), never the file: a problem anywhere stops the writing (without
/// `--skip-invalid`) and the caller rolls the transaction back.
///
/// On an engine that can stream rows (PostgreSQL's COPY), the valid rows are staged instead and
/// written at the end with set-based statements (`StagedCatalogWrite`); the checks, issues and
/// counts are the same either way.
struct CatalogImportSession {
    /// Rows per batch: one lookup, one insert of products and one of SKUs for each.
    static let batchSize = 500

    private let db: any SQLConnection
    private let options: CatalogImporter.Options
    private let now: Int64
    private let store = CatalogWriteStore()

    private(set) var issues: [ImportIssue] = []
    private var invalidLines = Set<Int>()
    private(set) var summary = ImportSummary()
    /// Rows read so far, valid or not.
    private(set) var rows = 0
    /// Products whose search text or sale status changed: the index is rebuilt for them at the end.
    private(set) var searchable: [ProductID] = []

    private var firstLineOfSKU: [String: Int] = [:]
    private var firstLineOfName: [String: [String: Int]] = [:]
    private var productIDs: [String: ProductID] = [:]
    private var categoryIDs: [[String]: CategoryID] = [:]
    private var batch: [CatalogRow] = []
    /// The staged path, where the connection can copy rows in bulk.
    private var staged: StagedCatalogWrite?

    init(db: any SQLConnection, options: CatalogImporter.Options, now: Int64) {
        self.db = db
        self.options = options
        self.now = now
        staged = (db as? any SQLBulkCopying).map(StagedCatalogWrite.init(db:))
    }

    /// Whether valid rows are still written: not once a problem has doomed the import.
    private var writing: Bool { options.skipInvalid || issues.isEmpty }

    mutating func take(_ record: CatalogFile.Record, validate: (CatalogRowValidator.Raw) -> Result<CatalogRow, RowIssues>) throws {
        rows += 1
        let row: CatalogRow
        switch record {
        case .invalid(let rowIssues):
            return reject(rowIssues)
        case .raw(let raw):
            switch validate(raw) {
            case .failure(let rowIssues): return reject(rowIssues.issues)
            case .success(let valid): row = valid
            }
        }
        if let first = firstLineOfSKU[row.skuCode] {
            return reject([ImportIssue(line: row.line, column: "sku_code", reason: "\(row.skuCode) already appears on line \(first)")])
        }
        if let first = firstLineOfName[row.productCode]?[row.skuName] {
            return reject([ImportIssue(line: row.line, column: "sku_name",
                                       reason: "\(row.productCode) already has a SKU named \(row.skuName) on line \(first); "
                                           + "the SKUs of one product need distinct names")])
        }
        firstLineOfSKU[row.skuCode] = row.line
        firstLineOfName[row.productCode, default: [:]][row.skuName] = row.line
        guard writing else { return }
        if staged != nil { return try staged!.append(row) }
        batch.append(row)
        if batch.count >= Self.batchSize { try flush() }
    }

    private mutating func reject(_ rowIssues: [ImportIssue]) {
        issues += rowIssues
        if let line = rowIssues.first?.line { invalidLines.insert(line) }
        if !writing {
            batch.removeAll()
            staged?.discardPending()
        }
    }

    /// Writes what is left; answers the summary, or throws `invalidRows` when the import must
    /// write nothing.
    mutating func finish() throws -> ImportSummary {
        issues.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        if !issues.isEmpty && !options.skipInvalid { throw ImportError.invalidRows(issues) }
        if staged != nil {
            searchable = try staged!.apply(keepExisting: options.keepExisting, now: now, summary: &summary)
        }
        try flush()
        summary.skus.invalid = invalidLines.count
        return summary
    }

    /// Products first (each product's first valid row gives its fields), then SKUs.
    private mutating func flush() throws {
        guard !batch.isEmpty else { return }
        defer { batch.removeAll(keepingCapacity: true) }
        var firstRows: [CatalogRow] = []
        var seen = Set<String>()
        for row in batch where productIDs[row.productCode] == nil && seen.insert(row.productCode).inserted {
            firstRows.append(row)
        }
        try upsertProducts(firstRows)
        try upsertSKUs(batch)
    }

    private mutating func upsertProducts(_ firstRows: [CatalogRow]) throws {
        let existing = try store.products(codes: firstRows.map(\.productCode), db)
        var inserts: [(code: String, fields: CatalogWriteStore.ProductFields)] = []
        for row in firstRows {
            if options.keepExisting, let existing = existing[row.productCode] {
                summary.products.unchanged += 1
                productIDs[row.productCode] = existing.id
                continue
            }
            let fields = CatalogWriteStore.ProductFields(
                categoryID: try category(row.categoryPath), title: row.title, subtitle: row.subtitle,
                description: row.description, coverURL: row.coverURL, attributes: row.attributes, status: row.status,
                delivery: row.delivery,
                images: row.imageURLs)
            guard let existing = existing[row.productCode] else {
                inserts.append((row.productCode, fields))
                continue
            }
            productIDs[row.productCode] = existing.id
            if existing.fields == fields {
                summary.products.unchanged += 1
            } else {
                try store.updateProduct(existing.id, fields, at: now, db)
                if Self.searchTextChanged(from: existing.fields, to: fields) { searchable.append(existing.id) }
                summary.products.updated += 1
            }
        }
        let ids = try store.insertProducts(inserts, at: now, db)
        for (code, _) in inserts {
            guard let id = ids[code] else { throw CatalogError.productNotFound }
            productIDs[code] = id
            searchable.append(id)
            summary.products.created += 1
        }
    }

    private mutating func category(_ path: [String]) throws -> CategoryID {
        if let id = categoryIDs[path] { return id }
        let id = try store.ensureCategory(path, db)
        categoryIDs[path] = id
        return id
    }

    /// Compared byte for byte, as the index sees text (Swift's `==` calls `é` and `e` + U+0301 equal).
    private static func searchTextChanged(from old: CatalogWriteStore.ProductFields, to new: CatalogWriteStore.ProductFields) -> Bool {
        old.status != new.status || !old.title.utf8.elementsEqual(new.title.utf8)
            || !old.subtitle.utf8.elementsEqual(new.subtitle.utf8) || !old.description.utf8.elementsEqual(new.description.utf8)
    }

    private mutating func upsertSKUs(_ rows: [CatalogRow]) throws {
        let existing = try store.skus(codes: rows.map(\.skuCode), db)
        var inserts: [(code: String, fields: CatalogWriteStore.SKUFields)] = []
        for row in rows {
            guard let productID = productIDs[row.productCode] else { throw CatalogError.productNotFound }
            let current = existing[row.skuCode]
            let fields = CatalogWriteStore.SKUFields(productID: productID, name: row.skuName, priceCents: row.priceCents,
                                                     originalPriceCents: row.originalPriceCents, stock: row.stock,
                                                     status: row.skuStatus ?? current?.fields.status ?? .onSale)
            guard let current else {
                inserts.append((row.skuCode, fields))
                continue
            }
            if options.keepExisting || current.fields == fields {
                summary.skus.unchanged += 1
            } else {
                try store.updateSKU(current.id, fields, at: now, db)
                summary.skus.updated += 1
            }
        }
        try store.insertSKUs(inserts, at: now, db)
        summary.skus.created += inserts.count
    }
}
