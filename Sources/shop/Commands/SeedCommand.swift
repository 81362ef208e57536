import Foundation
import ShopCore

/// `shop seed demo`: loads the demo shop shipped in Examples/.
struct SeedCommand: Command {
    let path = ["seed", "demo"]
    let summary = "load the demo catalogue, authors and articles from Examples/ (safe to run again)"
    let usage = """
        Usage: shop seed demo [--if-empty] [--config PATH]

          --if-empty   do nothing when the shop already has products (what `make run` uses)

        Imports Examples/catalog.csv, creates the column authors of Examples/authors.jsonl and
        imports Examples/articles.jsonl, so a new shop has something to show. Running it again
        changes nothing (the imports upsert).
        """

    static let catalogPath = "Examples/catalog.csv"
    static let authorsPath = "Examples/authors.jsonl"
    static let articlesPath = "Examples/articles.jsonl"

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], flags: ["if-empty"])
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        if arguments.flag("if-empty"), try shop.catalog.hasProducts() {
            print("the shop already has products: demo data not loaded")
            return 0
        }
        guard FileManager.default.fileExists(atPath: Self.catalogPath) else {
            throw CommandFailure(description: "\(Self.catalogPath) not found: run this from the repository root")
        }
        let outcome = try shop.catalogImporter.importFile(at: Self.catalogPath, options: .init())
        print("demo catalogue (\(Self.catalogPath)):")
        ImportReport.print(outcome.summary, dryRun: false)
        let authors = try shop.demoAuthors.seed(fileAt: Self.authorsPath)
        print("demo authors (\(Self.authorsPath)): created=\(authors)")
        let articles = try shop.articleImporter.importFile(at: Self.articlesPath, options: .init())
        print("demo articles (\(Self.articlesPath)):")
        ImportArticlesCommand.printSummary(articles.counts, dryRun: false)
        return 0
    }
}
