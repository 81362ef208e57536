import Foundation
import Localization
import ShopCore

/// `shop import catalog FILE [--dry-run] [--skip-invalid] [--encoding utf-8|gb18030] [--allow-paths DIR]`.
struct ImportCatalogCommand: Command {
    let path = ["import", "catalog"]
    let summary = "import products and SKUs from a .csv or .jsonl file (upsert by code)"
    var valuedOptions: Set<String> { ["encoding", "allow-paths"] }
    let usage = """
        Usage: shop import catalog FILE [--dry-run] [--skip-invalid] [--encoding utf-8|gb18030] [--allow-paths DIR]
                                   [--config PATH]

        Columns: product_code, sku_code, sku_name, title, subtitle, category (a path like 花束/玫瑰),
        price and original_price (yuan, at most two decimals), stock, description, cover_url,
        image_urls (|-separated), attributes (a JSON object), status (on_sale | off_sale).
        One row is one SKU; rows sharing a product_code form one product (product fields come
        from its first row). sku_name may be missing or empty (默认, for a product with one
        variant); the SKUs of one product need distinct names. cover_url and image_urls take
        http(s) URLs, /media/ paths, or local image files (PNG, JPEG, WebP or GIF by their bytes;
        a path relative to the file's folder, or absolute), which are copied into media.path; a
        symbolic link, or a file outside the file's folder (unless --allow-paths names a folder
        it is in), is refused. Every row
        is checked; a file with an invalid row writes nothing. Only a regular file up to
        catalog.import_max_bytes is read. On a terminal it shows its progress on stderr.
        Messages follow LANG (zh_CN.UTF-8: Chinese).

          --dry-run          check and count what it would create and update, write nothing
          --skip-invalid     import the valid rows and report the invalid ones
          --encoding NAME    utf-8 (default) or gb18030 (also gbk): what Excel in China saves
          --allow-paths DIR  local image files may also come from DIR (and the folders under it)
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "encoding", "allow-paths"], flags: ["dry-run", "skip-invalid"], positionals: 1)
        var encoding = CatalogImporter.Encoding.utf8
        if let name = arguments.option("encoding") {
            guard let named = CatalogImporter.Encoding(name: name) else {
                throw UsageError(description: say(zh: "--encoding 必须是 utf-8 或 gb18030，而不是“\(name)”", en: "--encoding must be utf-8 or gb18030, not '\(name)'"))
            }
            encoding = named
        }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let options = CatalogImporter.Options(dryRun: arguments.flag("dry-run"), skipInvalid: arguments.flag("skip-invalid"),
                                              encoding: encoding, allowedImageFolders: arguments.option("allow-paths").map { [$0] } ?? [])
        let language = Language.ofTerminal
        let progress = ProgressLine(language: language)
        let outcome: CatalogImporter.Outcome
        do {
            outcome = try shop.catalogImporter.importFile(at: arguments.positionals[0], options: options, progress: progress?.handler)
        } catch let error as ImportError {
            progress?.finish()
            switch error {
            case .invalidRows(let issues), .badHeader(let issues): issues.forEach { standardError($0.description) }
            default: break
            }
            throw CommandFailure(description: error.message[language])
        }
        progress?.finish()
        outcome.issues.forEach { standardError($0.description) }
        ImportReport.print(outcome.summary, dryRun: options.dryRun, language: language)
        return 0
    }
}

/// The totals, once: the two lines scripts read, after a sentence saying what a dry run would do.
enum ImportReport {
    static func print(_ summary: ImportSummary, dryRun: Bool, language: Language = .ofTerminal) {
        let p = summary.products, s = summary.skus
        if dryRun {
            let text = LocalizedText(
                zh: "试运行，未写入任何内容：将新建 \(p.created) 个商品、\(s.created) 个 SKU，将更新 \(p.updated) 个商品、\(s.updated) 个 SKU",
                en: "dry run, nothing was written: would create \(p.created) products and \(s.created) SKUs, "
                    + "would update \(p.updated) products and \(s.updated) SKUs")
            Swift.print(text[language])
        }
        Swift.print("products: created=\(p.created) updated=\(p.updated) unchanged=\(p.unchanged)")
        Swift.print("skus: created=\(s.created) updated=\(s.updated) unchanged=\(s.unchanged) invalid=\(s.invalid)")
    }
}

/// A progress line on stderr (percent of the file, rows, rows a second), only when stderr is a
/// terminal: a redirected log gets no carriage returns.
final class ProgressLine: Sendable {
    private let language: Language
    private let started = ContinuousClock.now

    init?(language: Language, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        guard isTerminal else { return nil }
        self.language = language
    }

    var handler: CatalogImporter.ProgressHandler {
        { [self] progress in FileHandle.standardError.write(Data(("\r" + line(progress) + "\u{1B}[K").utf8)) }
    }

    func line(_ progress: CatalogImporter.Progress) -> String {
        let elapsed = ContinuousClock.now - started
        return progress.line(in: language, elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Clears the line, so what follows starts on a clean one.
    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

extension Language {
    /// The operator's language from the locale (`LC_ALL`, then `LC_MESSAGES`, then `LANG`):
    /// Chinese for a `zh…` locale, English otherwise.
    static var ofTerminal: Language {
        let environment = ProcessInfo.processInfo.environment
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return value.lowercased().hasPrefix("zh") ? .chinese : .english
        }
        return .english
    }
}
