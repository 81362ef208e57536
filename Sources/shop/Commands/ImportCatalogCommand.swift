import Foundation
import ShopCore

/// `shop import catalog FILE [--dry-run] [--skip-invalid]`.
struct ImportCatalogCommand: Command {
    let path = ["import", "catalog"]
    let summary = "import products and SKUs from a .csv or .jsonl file (upsert by code)"
    let usage = """
        Usage: shop import catalog FILE [--dry-run] [--skip-invalid] [--config PATH]

        Columns: product_code, sku_code, sku_name, title, subtitle, category (a path like 花束/玫瑰),
        price and original_price (yuan, at most two decimals), stock, description, cover_url,
        image_urls (|-separated), attributes (a JSON object), status (on_sale | off_sale).
        One row is one SKU; rows sharing a product_code form one product (product fields come
        from its first row). sku_name may be missing or empty (默认, for a product with one
        variant); the SKUs of one product need distinct names. Every row is checked first; a file
        with an invalid row writes nothing. Only a regular file up to catalog.import_max_bytes is
        read.

          --dry-run        check and count, write nothing
          --skip-invalid   import the valid rows and report the invalid ones
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], flags: ["dry-run", "skip-invalid"], positionals: 1)
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let options = CatalogImporter.Options(dryRun: arguments.flag("dry-run"), skipInvalid: arguments.flag("skip-invalid"))
        let outcome: CatalogImporter.Outcome
        do {
            outcome = try shop.catalogImporter.importFile(at: arguments.positionals[0], options: options,
                                                          progress: ProgressLine.make(label: "importing"))
        } catch ImportError.invalidRows(let issues) {
            ProgressLine.finish()
            issues.forEach { standardError($0.description) }
            throw CommandFailure(description: ImportError.invalidRows(issues).description)
        }
        ProgressLine.finish()
        outcome.issues.forEach { standardError($0.description) }
        ImportReport.print(outcome.summary, dryRun: options.dryRun)
        return 0
    }
}

/// The summary table, ending with the two lines scripts read.
enum ImportReport {
    static func print(_ summary: ImportSummary, dryRun: Bool) {
        func cell(_ text: String, _ width: Int = 10) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        func row(_ name: String, _ counts: ImportSummary.Counts, invalid: Bool) -> String {
            name.padding(toLength: 9, withPad: " ", startingAt: 0) + cell(String(counts.created)) + cell(String(counts.updated))
                + cell(String(counts.unchanged)) + (invalid ? cell(String(counts.invalid)) : "")
        }
        if dryRun { Swift.print("dry run: nothing was written") }
        Swift.print("         " + cell("created") + cell("updated") + cell("unchanged") + cell("invalid"))
        Swift.print(row("products", summary.products, invalid: false))
        Swift.print(row("skus", summary.skus, invalid: true))
        let p = summary.products, s = summary.skus
        Swift.print("products: created=\(p.created) updated=\(p.updated) unchanged=\(p.unchanged)")
        Swift.print("skus: created=\(s.created) updated=\(s.updated) unchanged=\(s.unchanged) invalid=\(s.invalid)")
    }
}

/// A progress line on stderr, only when stderr is a terminal.
enum ProgressLine {
    static func make(label: String) -> CatalogImporter.Progress? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        return { done, total in
            FileHandle.standardError.write(Data("\r\(label) \(done)/\(total) rows".utf8))
        }
    }

    static func finish() {
        if isatty(STDERR_FILENO) == 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
