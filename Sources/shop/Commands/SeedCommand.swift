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
        imports Examples/articles.jsonl, so a new shop has something to show. It only adds what
        is missing: running it again on a shop that has sold, or whose operator changed prices,
        stock, authors or articles, changes none of that.
        """

    static let examples = "Examples"

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], flags: ["if-empty"])
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        if arguments.flag("if-empty"), try shop.catalog.hasProducts() {
            print("the shop already has products: demo data not loaded")
            return 0
        }
        guard FileManager.default.fileExists(atPath: "\(Self.examples)/\(DemoShopSeeder.catalogFile)") else {
            throw CommandFailure(description: "\(Self.examples)/\(DemoShopSeeder.catalogFile) not found: run this from the repository root")
        }
        let report = try shop.demo.seed(from: Self.examples)
        print("demo catalogue (\(Self.examples)/\(DemoShopSeeder.catalogFile)):")
        ImportReport.print(report.catalog, dryRun: false)
        print("demo authors (\(Self.examples)/\(DemoShopSeeder.authorsFile)): created=\(report.authorsCreated)")
        print("demo articles (\(Self.examples)/\(DemoShopSeeder.articlesFile)):")
        ImportArticlesCommand.printSummary(report.articles.counts, dryRun: false)
        for issue in report.articles.issues { print("  skipped \(issue)") }
        return 0
    }
}
