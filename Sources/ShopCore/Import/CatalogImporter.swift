import Foundation
import Localization
import SQL

/// `shop import catalog`: streams the file, validating each row and upserting products and SKUs
/// by code in one transaction. A file with an invalid row writes nothing unless invalid rows are
/// skipped.
public struct CatalogImporter: Sendable {
    public struct Options: Sendable {
        public var dryRun = false
        public var skipInvalid = false
        /// Only add what is missing: a product, SKU or article that exists is left exactly as it
        /// is (what `shop seed demo` uses, so it never undoes a sale or an operator's edit).
        public var keepExisting = false
        public var encoding = Encoding.utf8
        /// Folders besides the file's own that local image files may come from (`--allow-paths`).
        public var allowedImageFolders: [String] = []

        public init(dryRun: Bool = false, skipInvalid: Bool = false, keepExisting: Bool = false, encoding: Encoding = .utf8,
                    allowedImageFolders: [String] = []) {
            self.dryRun = dryRun
            self.skipInvalid = skipInvalid
            self.keepExisting = keepExisting
            self.encoding = encoding
            self.allowedImageFolders = allowedImageFolders
        }
    }

    /// The outcome: what was (or would be) written, and every problem found.
    public struct Outcome: Sendable {
        public let summary: ImportSummary
        public let issues: [ImportIssue]
    }

    /// How far an import has got: records read, and bytes of the file read of its size.
    public struct Progress: Sendable, Equatable {
        public let rows: Int
        public let bytesRead: Int
        public let totalBytes: Int

        public init(rows: Int, bytesRead: Int, totalBytes: Int) {
            self.rows = rows
            self.bytesRead = bytesRead
            self.totalBytes = totalBytes
        }

        /// Percent of the file read, 0...100.
        public var percent: Int { totalBytes > 0 ? min(100, bytesRead * 100 / totalBytes) : 100 }

        /// The progress line a terminal shows: `importing  45%  52000 rows  21000 rows/s`.
        public func line(in language: Language, elapsedSeconds: Double) -> String {
            let rate = elapsedSeconds > 0 ? Int(Double(rows) / elapsedSeconds) : 0
            let percentText = String(repeating: " ", count: max(0, 3 - String(percent).count)) + String(percent)
            return LocalizedText(zh: "导入中 {percent}%  {rows} 行  {rate} 行/秒", en: "importing {percent}%  {rows} rows  {rate} rows/s")
                .filling(["percent": .verbatim(percentText), "rows": .verbatim(String(rows)), "rate": .verbatim(String(rate))])[language]
        }
    }

    /// Called every few thousand rows, and once at the end.
    public typealias ProgressHandler = @Sendable (Progress) -> Void

    /// How the file's text is encoded.
    public enum Encoding: String, Sendable, CaseIterable {
        case utf8 = "utf-8"
        /// GB18030, which includes GBK and GB2312: what Excel in China saves by default.
        case gb18030

        /// `utf-8`/`utf8`, `gb18030`/`gbk`/`gb2312` (case-insensitive); nil for anything else.
        public init?(name: String) {
            switch name.lowercased() {
            case "utf-8", "utf8": self = .utf8
            case "gb18030", "gbk", "gb2312": self = .gb18030
            default: return nil
            }
        }
    }

    let pool: any Database
    let clock: Clock
    let maxBytes: Int
    /// `media.path`: where local image files named in a file are copied.
    let mediaPath: String
    /// Re-encodes local photos into the sizes uploads get (none: files are copied as they are).
    let media: MediaLibrary?
    /// Whose index the import keeps in step.
    let search: any SearchEngine

    public init(pool: any Database, search: any SearchEngine, clock: Clock, maxBytes: Int, mediaPath: String = "data/media",
                media: MediaLibrary? = nil) {
        self.media = media?.canProcess == true ? media : nil
        self.pool = pool
        self.search = search
        self.clock = clock
        self.maxBytes = maxBytes
        self.mediaPath = mediaPath
    }

    /// Imports the file at `path` (`.csv` or `.jsonl`), reading it a chunk at a time.
    public func importFile(at path: String, options: Options, progress: ProgressHandler? = nil) throws -> Outcome {
        guard let format = CatalogFile.Format(path: path) else { throw ImportError.unsupportedFormat(path) }
        return try importSource(try FileImportSource(path: path, maxBytes: maxBytes), format: format, options: options,
                                imageFolder: URL(fileURLWithPath: path).deletingLastPathComponent(), progress: progress)
    }

    /// `imageFolder`: where relative image paths in the file start (none: local images are refused).
    func importData(_ bytes: [UInt8], format: CatalogFile.Format, options: Options, imageFolder: URL? = nil,
                    progress: ProgressHandler? = nil) throws -> Outcome {
        try importSource(MemoryImportSource(bytes), format: format, options: options, imageFolder: imageFolder, progress: progress)
    }

    /// Reads, validates and writes in one pass inside one write transaction; a problem that must
    /// write nothing (or a dry run) rolls it back.
    func importSource(_ file: any ImportSource, format: CatalogFile.Format, options: Options, imageFolder: URL?,
                      progress: ProgressHandler? = nil) throws -> Outcome {
        let images = LocalImages(baseFolder: imageFolder, allowedFolders: options.allowedImageFolders.map { URL(fileURLWithPath: $0) },
                                 mediaFolder: URL(fileURLWithPath: mediaPath), media: media)
        let source: any ImportSource = options.encoding == .gb18030 ? try GB18030ImportSource(file) : file
        let now = clock.unixNow
        do {
            return try pool.write { db in
                // PostgreSQL runs the closure again after a deadlock: read the file from its start.
                try source.rewind()
                var session = CatalogImportSession(db: db, options: options, now: now)
                var attributes = AttributesCache()
                try CatalogFile.forEachRecord(in: source, format: format) { record in
                    try session.take(record) { CatalogRowValidator.validate($0, attributes: &attributes, images: images) }
                    if session.rows % 2_000 == 0 {
                        progress?(Progress(rows: session.rows, bytesRead: source.bytesRead, totalBytes: source.totalBytes))
                    }
                }
                let summary = try session.finish()
                progress?(Progress(rows: session.rows, bytesRead: source.totalBytes, totalBytes: source.totalBytes))
                let outcome = Outcome(summary: summary, issues: session.issues)
                if options.dryRun { throw DryRun(outcome: outcome) }
                // Before the commit: a file that cannot be copied writes nothing; a commit that
                // fails after the copy leaves unused files under names no other bytes can take.
                try images.copyPending()
                // The search index, once for every product whose text or sale status changed.
                try search.reindex(session.searchable, db)
                // A bulk change can leave the planner with stale statistics: refresh them with the import.
                try db.refreshStatistics(of: ["products", "skus"] + search.indexTables)
                return outcome
            }
        } catch let dryRun as DryRun {
            return dryRun.outcome
        } catch let bad as CSVReader.NotUTF8 {
            throw ImportError.notUTF8(line: bad.line, gb18030: GB18030ImportSource.decodes(try file.readAll()))
        }
    }

    /// Thrown to roll a dry run back after counting what it would have done.
    private struct DryRun: Error { let outcome: Outcome }
}
