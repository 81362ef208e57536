import Foundation
import ShopAPI
import ShopBundle
import ShopCore

/// `shop seed demo`: loads the demo shop shipped in Examples/.
struct SeedCommand: Command {
    let path = ["seed", "demo"]
    let summary = "load the demo catalogue, authors and articles built into shop (safe to run again)"
    let usage = """
        Usage: shop seed demo [--if-empty] [--config PATH]

          --if-empty   do nothing when the shop already has products (what `make run` uses)

        Imports catalog.csv, creates the column authors of authors.jsonl and imports
        articles.jsonl (the Examples/ files of the source tree, built into shop, so it works from
        any folder), so a new shop has something to show. It only adds what
        is missing: running it again on a shop that has sold, or whose operator changed prices,
        stock, authors or articles, changes none of that.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], flags: ["if-empty"])
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent, create: true)
        if arguments.flag("if-empty"), try shop.catalog.hasProducts() {
            print(say(zh: "商店已有商品：未加载演示数据", en: "the shop already has products: demo data not loaded"))
            return 0
        }
        // The demo shop is built into the binary (from Examples/), so this works from any folder.
        let folder = try ShopBundle.writeDemoFiles()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = try shop.demo.seed(from: folder)
        print(say(zh: "演示商品（\(DemoShopSeeder.catalogFile)）：", en: "demo catalogue (\(DemoShopSeeder.catalogFile)):"))
        ImportReport.print(report.catalog, dryRun: false)
        print(say(zh: "演示作者（\(DemoShopSeeder.authorsFile)）：新建 \(report.authorsCreated) 位",
                  en: "demo authors (\(DemoShopSeeder.authorsFile)): created=\(report.authorsCreated)"))
        print(say(zh: "演示文章（\(DemoShopSeeder.articlesFile)）：", en: "demo articles (\(DemoShopSeeder.articlesFile)):"))
        ImportArticlesCommand.printSummary(report.articles.counts, dryRun: false)
        for issue in report.articles.issues { print(say(zh: "  已跳过 \(issue)", en: "  skipped \(issue)")) }
        // Share pages name the covers as PNGs (messengers show no SVG): drawn now, not on first request.
        if shop.media.canProcess {
            let previews = DemoPreviewPictures.draw(try DemoShopSeeder.coverPictures(in: folder), with: shop.media)
            print(say(zh: "分享图（PNG，\(shop.config.media.path)/demo）：\(previews.ready) 张", en: "share pictures (PNG, \(shop.config.media.path)/demo): \(previews.ready)"))
            for url in previews.failed { print(say(zh: "  未能绘制 \(url)", en: "  could not draw \(url)")) }
        }
        return 0
    }
}
