import Foundation
import SQL

/// `shop import catalog`: validates every row first, then upserts products and SKUs by code in
/// one transaction. A file with an invalid row writes nothing unless invalid rows are skipped.
public struct CatalogImporter: Sendable {
    public struct Options: Sendable {
        public var dryRun = false
        public var skipInvalid = false
        /// Only add what is missing: a product, SKU or article that exists is left exactly as it
        /// is (what `shop seed demo` uses, so it never undoes a sale or an operator's edit).
        public var keepExisting = false

        public init(dryRun: Bool = false, skipInvalid: Bool = false, keepExisting: Bool = false) {
            self.dryRun = dryRun
            self.skipInvalid = skipInvalid
            self.keepExisting = keepExisting
        }
    }

    /// The outcome: what was (or would be) written, and every problem found.
    public struct Outcome: Sendable {
        public let summary: ImportSummary
        public let issues: [ImportIssue]
    }

    /// Called now and then with (rows done, rows in all).
    public typealias Progress = @Sendable (Int, Int) -> Void

    let pool: any Database
    let clock: Clock
    let maxBytes: Int
    private let store = CatalogWriteStore()
    private let searchIndex = SearchIndex()

    public init(pool: any Database, clock: Clock, maxBytes: Int) {
        self.pool = pool
        self.clock = clock
        self.maxBytes = maxBytes
    }

    /// Imports the file at `path` (`.csv` or `.jsonl`).
    public func importFile(at path: String, options: Options, progress: Progress? = nil) throws -> Outcome {
        guard let format = CatalogFile.Format(path: path) else { throw ImportError.unsupportedFormat(path) }
        return try importData(try ImportFile.read(path, maxBytes: maxBytes), format: format, options: options, progress: progress)
    }

    func importData(_ bytes: [UInt8], format: CatalogFile.Format, options: Options, progress: Progress? = nil) throws -> Outcome {
        let (raws, readIssues) = try CatalogFile.read(bytes, format: format)
        var issues = readIssues
        var invalidLines = Set(readIssues.map(\.line))
        var rows: [CatalogRow] = []
        var firstLineOfSKU: [String: Int] = [:]
        var firstLineOfName: [String: [String: Int]] = [:]
        for raw in raws {
            switch CatalogRowValidator.validate(raw) {
            case .success(let row):
                if let first = firstLineOfSKU[row.skuCode] {
                    issues.append(ImportIssue(line: row.line, column: "sku_code", reason: "\(row.skuCode) already appears on line \(first)"))
                    invalidLines.insert(row.line)
                } else if let first = firstLineOfName[row.productCode]?[row.skuName] {
                    issues.append(ImportIssue(line: row.line, column: "sku_name",
                                              reason: "\(row.productCode) already has a SKU named \(row.skuName) on line \(first); "
                                                + "the SKUs of one product need distinct names"))
                    invalidLines.insert(row.line)
                } else {
                    firstLineOfSKU[row.skuCode] = row.line
                    firstLineOfName[row.productCode, default: [:]][row.skuName] = row.line
                    rows.append(row)
                }
            case .failure(let rowIssues):
                issues += rowIssues.issues
                invalidLines.insert(raw.line)
            }
        }
        issues.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        if !issues.isEmpty && !options.skipInvalid { throw ImportError.invalidRows(issues) }

        var summary = try write(rows, options: options, progress: progress)
        summary.skus.invalid = invalidLines.count
        return Outcome(summary: summary, issues: issues)
    }

    /// Thrown to roll a dry run back after counting what it would have done.
    private struct DryRun: Error { let summary: ImportSummary }

    private func write(_ rows: [CatalogRow], options: Options, progress: Progress?) throws -> ImportSummary {
        let now = clock.unixNow
        var groups: [String: [CatalogRow]] = [:]
        var order: [String] = []
        for row in rows {
            if groups[row.productCode] == nil { order.append(row.productCode) }
            groups[row.productCode, default: []].append(row)
        }
        do {
            return try pool.write { db in
                var summary = ImportSummary()
                var done = 0
                var searchable: [ProductID] = []
                for code in order {
                    guard let productRows = groups[code], let first = productRows.first else { continue }
                    let productID = try upsertProduct(code: code, first, keepExisting: options.keepExisting, at: now,
                                                      summary: &summary, searchable: &searchable, db)
                    for row in productRows {
                        try upsertSKU(row, productID: productID, keepExisting: options.keepExisting, at: now, summary: &summary, db)
                        done += 1
                        if done % 1_000 == 0 { progress?(done, rows.count) }
                    }
                }
                progress?(rows.count, rows.count)
                if options.dryRun { throw DryRun(summary: summary) }
                // The search index, once for every product whose text or sale status changed.
                try searchIndex.reindex(searchable, db)
                // A bulk change leaves PostgreSQL's planner with stale statistics (it would scan
                // every product for a search); refresh them with the import (SQLite plans without).
                if db.dialect == .postgresql { try db.execute(script: "ANALYZE products; ANALYZE skus; ANALYZE search_grams; ANALYZE search_texts") }
                return summary
            }
        } catch let dryRun as DryRun {
            return dryRun.summary
        }
    }

    /// `searchable` collects the products whose search text or status changed.
    private func upsertProduct(code: String, _ row: CatalogRow, keepExisting: Bool, at now: Int64, summary: inout ImportSummary,
                               searchable: inout [ProductID], _ db: any SQLConnection) throws -> ProductID {
        let existing = try store.product(code: code, db)
        if keepExisting, let existing {
            summary.products.unchanged += 1
            return existing.id
        }
        let fields = CatalogWriteStore.ProductFields(
            categoryID: try store.ensureCategory(row.categoryPath, db), title: row.title, subtitle: row.subtitle,
            description: row.description, coverURL: row.coverURL, attributes: row.attributes, status: row.status,
            images: row.imageURLs)
        guard let existing else {
            let id = try store.insertProduct(code: code, fields, at: now, db)
            searchable.append(id)
            summary.products.created += 1
            return id
        }
        if existing.fields == fields {
            summary.products.unchanged += 1
        } else {
            try store.updateProduct(existing.id, fields, at: now, db)
            if Self.searchTextChanged(from: existing.fields, to: fields) { searchable.append(existing.id) }
            summary.products.updated += 1
        }
        return existing.id
    }

    /// Compared byte for byte, as the index sees text (Swift's `==` calls `é` and `e` + U+0301 equal).
    private static func searchTextChanged(from old: CatalogWriteStore.ProductFields, to new: CatalogWriteStore.ProductFields) -> Bool {
        old.status != new.status || !old.title.utf8.elementsEqual(new.title.utf8)
            || !old.subtitle.utf8.elementsEqual(new.subtitle.utf8) || !old.description.utf8.elementsEqual(new.description.utf8)
    }

    private func upsertSKU(_ row: CatalogRow, productID: ProductID, keepExisting: Bool, at now: Int64, summary: inout ImportSummary,
                           _ db: any SQLConnection) throws {
        let fields = CatalogWriteStore.SKUFields(productID: productID, name: row.skuName, priceCents: row.priceCents,
                                                 originalPriceCents: row.originalPriceCents, stock: row.stock)
        guard let existing = try store.sku(code: row.skuCode, db) else {
            try store.insertSKU(code: row.skuCode, fields, at: now, db)
            summary.skus.created += 1
            return
        }
        if keepExisting || existing.fields == fields {
            summary.skus.unchanged += 1
        } else {
            try store.updateSKU(existing.id, fields, at: now, db)
            summary.skus.updated += 1
        }
    }
}
