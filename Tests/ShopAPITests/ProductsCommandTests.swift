import Foundation
import HTTP
import SQL
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// `shop products list|set|export` and `shop categories …` as an operator runs them: the built
/// binary on the test database, as the system user `florence`.
@Suite("shop products and shop categories")
struct ProductsCommandTests {
    static var binary: URL? { PaymentSimulateCommandTests.binary }

    /// Runs `shop` with `LANG=language` and `USER=florence`; answers exit status and output (stdout and stderr).
    static func run(_ arguments: [String], shop: TestShop, language: String = "C.UTF-8") throws -> (Int32, String) {
        guard let executable = binary else { throw FixtureError("no shop executable") }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Repository.root()
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHOP_") && !$0.key.hasPrefix("LC_") }
        environment.merge(TestDatabase.environment(for: shop.config)) { $1 }
        environment["LANG"] = language
        environment["USER"] = "florence"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Every row of the catalogue tables: "nothing changed" compares two of these.
    static func catalogRows(_ shop: TestShop) throws -> [[[SQLValue]]] {
        try shop.pool.read { db in try ["categories", "products", "skus", "product_images"].map { try TestDatabase.rows(of: $0, db).rows } }
    }

    static func productID(_ shop: TestShop, _ code: String) throws -> ProductID {
        try #require(try shop.pool.read { db in try db.scalar("SELECT id FROM products WHERE code = \(code)", as: ProductID.self) })
    }

    static func seed(_ shop: TestShop) throws {
        let csv = """
            product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status
            P1,P1-S1,11枝,红玫瑰花束,"热恋, 唯一",花束/玫瑰,129.00,159.00,10,"第一行
            第二行",https://img.example/a.jpg,https://img.example/a.jpg|https://img.example/b.jpg,"{""花语"":""热恋""}",on_sale
            P1,P1-S2,19枝,红玫瑰花束,"热恋, 唯一",花束/玫瑰,199.00,,2,"第一行
            第二行",https://img.example/a.jpg,https://img.example/a.jpg|https://img.example/b.jpg,"{""花语"":""热恋""}",on_sale
            P2,P2-S1,,龟背竹,,绿植,88.00,,0,,,,,off_sale

            """
        let outcome = try shop.shop.catalogImporter.importData(Array(csv.utf8), format: .csv, options: .init())
        guard outcome.issues.isEmpty else { throw FixtureError("seed rejected: \(outcome.issues)") }
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func setChangesOneSKUAndTheAuditNamesTheOperator() throws {
        let shop = try TestShop()
        try Self.seed(shop)
        let (status, output) = try Self.run(["products", "set", "P1-S1", "--price", "99.5", "--stock", "42"], shop: shop)
        #expect(status == 0, "\(output)")
        #expect(output.contains("99.50") && output.contains("42"), "\(output)")
        let product = try shop.shop.catalogAdmin.product(try Self.productID(shop, "P1"))
        #expect(product.skus.first { $0.code == "P1-S1" }.map { ($0.priceCents, $0.stock) }! == (9_950, 42))
        #expect(try shop.shop.catalog.product(product.id).summary.priceCents == 9_950)
        let entry = try #require(try AuditLog(pool: shop.pool).entries(AuditFilter(), page: try PageRequest()).items.first)
        #expect(entry.actor == "cli:florence" && entry.action == "sku.update" && entry.staffID == nil)

        let (offSale, offOutput) = try Self.run(["products", "set", "P1-S2", "--status", "off_sale"], shop: shop)
        #expect(offSale == 0 && offOutput.contains("off_sale"), "\(offOutput)")
        #expect(try shop.shop.catalog.product(product.id).skus.map(\.code) == ["P1-S1"])

        for (arguments, message) in [(["products", "set", "P1-S1"], "give at least one of"),
                                     (["products", "set", "P1-S1", "--price", "-1"], "--price must be"),
                                     (["products", "set", "P1-S1", "--stock", "1.5"], "--stock must be")] {
            let (code, text) = try Self.run(arguments, shop: shop)
            #expect(code == 2 && text.contains(message), "\(arguments): \(text)")
        }
        let (unknown, unknownOutput) = try Self.run(["products", "set", "NOPE", "--stock", "1"], shop: shop)
        #expect(unknown == 1 && unknownOutput.contains("no SKU has the code NOPE"), "\(unknownOutput)")
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func listFiltersAndPrintsTableCSVAndJSON() throws {
        let shop = try TestShop()
        try Self.seed(shop)
        let (status, table) = try Self.run(["products", "list"], shop: shop)
        #expect(status == 0, "\(table)")
        for needed in ["P1-S1", "P1-S2", "P2-S1", "off_sale", "129.00", "2 products, 3 SKUs"] {
            #expect(table.contains(needed), "missing \(needed) in:\n\(table)")
        }
        let (_, low) = try Self.run(["products", "list", "--low-stock", "0", "--format", "csv"], shop: shop)
        #expect(low.hasPrefix("\u{FEFF}PRODUCT,SKU,") && low.contains("P2-S1") && !low.contains("P1-S1"), "\(low)")
        let (_, json) = try Self.run(["products", "list", "--status", "on_sale", "--format", "json"], shop: shop)
        let items = try JSON.decoder().decode([AdminProductResponse].self, from: Data(json.utf8))
        #expect(items.map(\.code) == ["P1"])
        #expect(items.first?.skus.map(\.stock) == [10, 2])
        let (bad, badOutput) = try Self.run(["products", "list", "--format", "xml"], shop: shop)
        #expect(bad == 2 && badOutput.contains("--format must be table, csv or json"), "\(badOutput)")
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func importingTheExportedFileChangesNothing() throws {
        let shop = try TestShop()
        try Self.seed(shop)
        _ = try shop.shop.catalogAdmin.updateSKU(code: "P1-S2", SKUChanges(priceCents: 18_800, stock: .delta(3), status: .offSale),
                                                  by: .commandLine(user: "test"))
        let file = shop.directory.appendingPathComponent("export.csv").path
        let (status, output) = try Self.run(["products", "export", file], shop: shop)
        #expect(status == 0 && output.contains("exported 2 products and 3 SKUs"), "\(output)")
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        #expect(exported.contains(",delivery,sku_status\r\n") && exported.contains("P1-S2") , "\(exported)")
        let before = try Self.catalogRows(shop)
        let (imported, importOutput) = try Self.run(["import", "catalog", file], shop: shop)
        #expect(imported == 0, "\(importOutput)")
        #expect(importOutput.contains("products: created=0 updated=0 unchanged=2"), "\(importOutput)")
        #expect(importOutput.contains("skus: created=0 updated=0 unchanged=3 invalid=0"), "\(importOutput)")
        #expect(try Self.catalogRows(shop) == before)
        let skuStatus = try shop.pool.read { db in try db.scalar("SELECT status FROM skus WHERE code = 'P1-S2'", as: String.self) }
        #expect(skuStatus == "off_sale")
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func setTakesOneSKUOffSaleAndAFileWithoutTheColumnKeepsIt() throws {
        let shop = try TestShop()
        try Self.seed(shop)
        let (status, output) = try Self.run(["products", "set", "P1-S1", "--status", "off_sale"], shop: shop)
        #expect(status == 0 && output.contains("off_sale"), "\(output)")
        let page = try shop.shop.catalog.product(try Self.productID(shop, "P1"))
        #expect(page.skus.map(\.code) == ["P1-S2"] && page.summary.priceCents == 19_900)
        // Importing the seed again (no sku_status column) leaves the SKU off sale; a file that says on_sale puts it back.
        try Self.seed(shop)
        #expect(try shop.shop.catalog.product(try Self.productID(shop, "P1")).skus.map(\.code) == ["P1-S2"])
        let csv = """
            product_code,sku_code,sku_name,title,category,price,stock,sku_status
            P1,P1-S1,11枝,红玫瑰花束,花束/玫瑰,129.00,10,on_sale

            """
        let outcome = try shop.shop.catalogImporter.importData(Array(csv.utf8), format: .csv, options: .init())
        #expect(outcome.issues.isEmpty)
        #expect(try shop.shop.catalog.product(try Self.productID(shop, "P1")).skus.map(\.code) == ["P1-S1", "P1-S2"])
        do {
            _ = try shop.shop.catalogImporter.importData(Array(csv.replacingOccurrences(of: ",on_sale", with: ",sold").utf8),
                                                         format: .csv, options: .init())
            Issue.record("a sku_status of \"sold\" was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.column) == ["sku_status"], "\(issues)")
        }
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func categoriesAreRenamedMovedAndDeletedByPath() throws {
        let shop = try TestShop()
        try Self.seed(shop)
        _ = try shop.shop.catalogAdmin.createCategory(name: "郁金相", parent: try shop.shop.catalogAdmin.category(path: "花束").id,
                                                      by: .commandLine(user: "test"))
        let (renamed, renameOutput) = try Self.run(["categories", "rename", "花束/郁金相", "郁金香"], shop: shop)
        #expect(renamed == 0 && renameOutput.contains("花束/郁金香"), "\(renameOutput)")
        let (moved, moveOutput) = try Self.run(["categories", "move", "花束/郁金香", "--top"], shop: shop)
        #expect(moved == 0 && moveOutput.contains("now 郁金香"), "\(moveOutput)")
        let (refused, refusedOutput) = try Self.run(["categories", "delete", "花束"], shop: shop)
        #expect(refused == 1 && refusedOutput.contains("still holds"), "\(refusedOutput)")
        let (deleted, deleteOutput) = try Self.run(["categories", "delete", "郁金香"], shop: shop)
        #expect(deleted == 0, "\(deleteOutput)")
        #expect(Set(try shop.shop.catalogAdmin.categories().map(\.path)) == ["绿植", "花束", "花束/玫瑰"])
        let actions = try AuditLog(pool: shop.pool).entries(AuditFilter(staff: "cli:florence"), page: try PageRequest()).items.map(\.action)
        #expect(actions == ["category.delete", "category.update", "category.update"])
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func helpIsInChineseUnderAChineseLocale() throws {
        let shop = try TestShop()
        for command in [["products", "list"], ["products", "set"], ["products", "export"], ["categories", "rename"],
                        ["categories", "move"], ["categories", "delete"]] {
            let (status, chinese) = try Self.run(["help"] + command, shop: shop, language: "zh_CN.UTF-8")
            #expect(status == 0 && chinese.contains("用法：shop \(command.joined(separator: " "))"), "\(chinese)")
            let (_, english) = try Self.run(command + ["--help"], shop: shop)
            #expect(english.contains("Usage: shop \(command.joined(separator: " "))"), "\(english)")
        }
    }
}
