import Foundation

/// `shop seed demo`: the demo catalogue, column authors and articles of `Examples/`. It only adds
/// what is missing, so running it on a shop that has sold, or whose operator changed a price, a
/// stock, an author's role or an article, changes none of that.
public struct DemoShopSeeder: Sendable {
    /// What one run added (and left alone).
    public struct Report: Sendable {
        public let catalog: ImportSummary
        public let authorsCreated: Int
        public let articles: ArticleImporter.Outcome
    }

    public static let catalogFile = "catalog.csv"
    public static let authorsFile = "authors.jsonl"
    public static let articlesFile = "articles.jsonl"

    let catalog: CatalogImporter
    let authors: DemoAuthorSeeder
    let articles: ArticleImporter

    /// Seeds from the directory holding the three files (`Examples/` of the repository).
    public func seed(from directory: String) throws -> Report {
        let path = { (name: String) in URL(fileURLWithPath: directory).appendingPathComponent(name).path }
        let catalogOutcome = try catalog.importFile(at: path(Self.catalogFile), options: .init(keepExisting: true))
        let created = try authors.seed(fileAt: path(Self.authorsFile))
        // A demo article whose author an operator has since revoked is skipped, not an error.
        let articleOutcome = try articles.importFile(at: path(Self.articlesFile),
                                                     options: .init(skipInvalid: true, keepExisting: true))
        return Report(catalog: catalogOutcome.summary, authorsCreated: created, articles: articleOutcome)
    }

    /// The cover pictures of the demo products and articles in `directory` (`/media/demo/NAME.svg`),
    /// once each, in file order: share pages name them, as PNGs, in their `og:image`.
    public static func coverPictures(in directory: String) throws -> [String] {
        let folder = URL(fileURLWithPath: directory)
        var covers: [String] = []
        let catalog = try CSVReader.records([UInt8](Data(contentsOf: folder.appendingPathComponent(catalogFile))))
        if let header = catalog.first, let column = header.fields.firstIndex(of: "cover_url") {
            covers += catalog.dropFirst().compactMap { column < $0.fields.count ? $0.fields[column] : nil }
        }
        let articles = try String(contentsOf: folder.appendingPathComponent(articlesFile), encoding: .utf8)
        for line in articles.split(separator: "\n") {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let cover = object?["cover_url"] as? String { covers.append(cover) }
        }
        var seen = Set<String>()
        return covers.filter { $0.hasPrefix(MediaPath.prefix + "demo/") && $0.hasSuffix(".svg") && seen.insert($0).inserted }
    }
}
