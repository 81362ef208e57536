import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ShopTestSupport
import Testing
@testable import ShopCore

private func counts(_ created: Int, _ updated: Int, _ unchanged: Int, invalid: Int = 0) -> ImportSummary.Counts {
    ImportSummary.Counts(created: created, updated: updated, unchanged: unchanged, invalid: invalid)
}

/// Two products, three SKUs: the file most import tests start from.
private let baseLines = [
    CatalogLine(product: "ROSE", sku: "ROSE-11", skuName: "11枝", title: "红玫瑰花束", subtitle: "热恋", category: "花束/玫瑰",
                price: "129.00", originalPrice: "159.00", stock: "20", description: "十一枝红玫瑰", cover: "https://img.example.com/rose.jpg",
                images: "https://img.example.com/rose-1.jpg|https://img.example.com/rose-2.jpg", attributes: #"{"花语":"热恋","stems":11}"#),
    CatalogLine(product: "ROSE", sku: "ROSE-33", skuName: "33枝", title: "红玫瑰花束", subtitle: "热恋", category: "花束/玫瑰",
                price: "299", stock: "5"),
    CatalogLine(product: "LILY", sku: "LILY-6", skuName: "6枝", title: "香水百合", category: "花束/百合", price: "88.8", stock: "8"),
]

@Suite("Catalogue import: validation, all-or-nothing, upserts")
struct CatalogImportTests {
    // MARK: All or nothing

    @Test func oneInvalidRowWritesNothingAndReportsEveryProblem() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines(baseLines)
        let before = try fixture.catalogSnapshot()

        var lines = baseLines
        lines[0].price = "139.00" // a valid edit that must not be written
        lines.append(CatalogLine(product: "TULIP", sku: "TULIP-1", title: "郁金香", category: "花束/郁金香", price: "12.345", stock: "-3"))
        lines.append(CatalogLine(product: "DAISY", sku: "DAISY-1", title: "雏菊", category: "花束/雏菊"))
        do {
            try fixture.importCatalogLines(lines)
            Issue.record("a file with an invalid row was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.description) == [
                "line 5: price: \"12.345\" is not an amount in yuan with at most two decimals (e.g. 129.00)",
                "line 5: stock: must not be negative",
            ])
        }
        #expect(try fixture.catalogSnapshot() == before)
    }

    @Test func skippingInvalidRowsWritesTheValidOnesAndCountsTheRest() throws {
        let fixture = try TestShop()
        let text = CatalogLine.file([
            CatalogLine(product: "ROSE", sku: "ROSE-11"), // line 2
            CatalogLine(product: "ROSE", sku: "ROSE-33", price: "1e3"), // line 3
            CatalogLine(product: "LILY", sku: "LILY-6", title: "香水百合", category: "花束/百合"), // line 4
            CatalogLine(product: "BAD", sku: "BAD-1", title: "", price: "-1"), // line 5: two problems, one row
        ]) + "\"ONLY\",\"THREE\",\"FIELDS\"\n" // line 6
        let outcome = try fixture.importCatalogCSV(text, .init(skipInvalid: true))
        #expect(outcome.summary.products == counts(2, 0, 0))
        #expect(outcome.summary.skus == counts(2, 0, 0, invalid: 3))
        #expect(outcome.issues.map(\.line) == [3, 5, 5, 6])
        #expect(outcome.issues.map(\.column) == ["price", "price", "title", "row"])
        #expect(outcome.issues.last?.description == "line 6: row: has 3 fields, the header has 14")

        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "ROSE"))
        #expect(rose.skus.map(\.code) == ["ROSE-11"])
        #expect(try fixture.catalogSnapshot().skuCount == 2)
        #expect(throws: FixtureError.self) { try fixture.catalogProductID(code: "BAD") }
    }

    @Test func aDryRunWritesNothingButCountsWhatItWouldDo() throws {
        let fixture = try TestShop()
        let fresh = try fixture.importCatalogLines(baseLines, .init(dryRun: true))
        #expect(fresh.summary.products == counts(2, 0, 0))
        #expect(fresh.summary.skus == counts(3, 0, 0))
        #expect(try fixture.catalogSnapshot() == CatalogSnapshot(tables: try TestShop().catalogSnapshot().tables))

        try fixture.importCatalogLines(baseLines)
        let before = try fixture.catalogSnapshot()
        var lines = baseLines
        lines[1].stock = "4"
        lines[2].title = "粉百合"
        lines.append(CatalogLine(product: "ROSE", sku: "ROSE-99", skuName: "99枝", price: "999"))
        lines.append(CatalogLine(product: "TULIP", sku: "TULIP-1", title: "郁金香", category: "花束/郁金香", price: "x"))
        let dry = try fixture.importCatalogLines(lines, .init(dryRun: true, skipInvalid: true))
        #expect(dry.summary.products == counts(0, 1, 1))
        #expect(dry.summary.skus == counts(1, 1, 2, invalid: 1))
        #expect(try fixture.catalogSnapshot() == before)
    }

    @Test func aDryRunOfAnInvalidFileStillFailsWithTheIssues() throws {
        let fixture = try TestShop()
        #expect(throws: ImportError.invalidRows([ImportIssue(line: 2, column: "stock", reason: "\"many\" is not a whole number")])) {
            try fixture.importCatalogLines([CatalogLine(stock: "many")], .init(dryRun: true))
        }
    }

    // MARK: Upserts

    @Test func importingTheSameFileAgainChangesNothing() throws {
        let fixture = try TestShop()
        let first = try fixture.importCatalogLines(baseLines)
        #expect(first.summary.products == counts(2, 0, 0))
        #expect(first.summary.skus == counts(3, 0, 0))
        let before = try fixture.catalogSnapshot()

        fixture.clock.advance(by: 3_600)
        let second = try fixture.importCatalogLines(baseLines)
        #expect(second.summary.products == counts(0, 0, 2))
        #expect(second.summary.skus == counts(0, 0, 3))
        #expect(second.issues.isEmpty)
        // Not even updated_at moves.
        #expect(try fixture.catalogSnapshot() == before)
    }

    @Test func attributesInAnotherKeyOrderOrSpacingAreUnchanged() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([CatalogLine(attributes: #"{"stems":11,"花语":"热恋"}"#)])
        let again = try fixture.importCatalogLines([CatalogLine(attributes: #"{ "花语" : "热恋", "stems" : 11 }"#)])
        #expect(again.summary.products == counts(0, 0, 1))
    }

    @Test func anEditedRowIsUpdated() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines(baseLines)
        var lines = baseLines
        lines[1].price = "279.00"
        lines[1].stock = "0"
        let skuEdit = try fixture.importCatalogLines(lines)
        #expect(skuEdit.summary.products == counts(0, 0, 2))
        #expect(skuEdit.summary.skus == counts(0, 1, 2))
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "ROSE"))
        #expect(rose.skus.first { $0.code == "ROSE-33" }.map { [$0.priceCents, $0.stock] } == [27_900, 0])

        lines[2].title = "粉色香水百合"
        lines[2].description = "新描述"
        let productEdit = try fixture.importCatalogLines(lines)
        #expect(productEdit.summary.products == counts(0, 1, 1))
        #expect(productEdit.summary.skus == counts(0, 0, 3))
        let lily = try fixture.catalogService.product(try fixture.catalogProductID(code: "LILY"))
        #expect(lily.summary.title == "粉色香水百合")
        #expect(lily.description == "新描述")
        // The search index follows the new title, and forgets the old one.
        #expect(try fixture.catalogTitles("粉色") == ["粉色香水百合"])
        #expect(try fixture.catalogTitles("粉色香水") == ["粉色香水百合"])
        #expect(try fixture.catalogTitles("新描述") == ["粉色香水百合"])
        lines[2].title = "白百合"
        try fixture.importCatalogLines(lines)
        #expect(try fixture.catalogTitles("粉色").isEmpty)
        #expect(try fixture.catalogTitles("粉色香水").isEmpty)
    }

    @Test func productFieldsComeFromTheProductsFirstRow() throws {
        let fixture = try TestShop()
        let lines = [
            CatalogLine(product: "ROSE", sku: "ROSE-11", title: "红玫瑰花束", subtitle: "热恋", category: "花束/玫瑰",
                        description: "第一行的描述", cover: "https://img.example.com/a.jpg", attributes: #"{"a":1}"#),
            CatalogLine(product: "ROSE", sku: "ROSE-33", skuName: "33枝", title: "另一个标题", subtitle: "别的", category: "绿植",
                        price: "299", description: "第二行的描述", cover: "https://img.example.com/b.jpg", attributes: #"{"b":2}"#,
                        status: "off_sale"),
        ]
        let outcome = try fixture.importCatalogLines(lines)
        #expect(outcome.summary.products == counts(1, 0, 0))
        #expect(outcome.summary.skus == counts(2, 0, 0))
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "ROSE"))
        #expect(rose.summary.title == "红玫瑰花束")
        #expect(rose.summary.subtitle == "热恋")
        #expect(rose.summary.coverURL == "https://img.example.com/a.jpg")
        #expect(rose.description == "第一行的描述")
        #expect(rose.attributes == ["a": .number(1)])
        #expect(rose.categoryID == (try fixture.catalogCategoryID(path: "花束/玫瑰")))
        #expect(rose.skus.map(\.code) == ["ROSE-11", "ROSE-33"])
        // The SKU fields of the later row do count.
        #expect(rose.skus.map(\.name) == ["11枝", "33枝"])

        let again = try fixture.importCatalogLines(lines)
        #expect(again.summary.products == counts(0, 0, 1))
    }

    @Test func aDuplicateSKUCodeIsReportedOnTheLaterLine() throws {
        let fixture = try TestShop()
        let lines = [
            CatalogLine(product: "ROSE", sku: "ROSE-11"),
            CatalogLine(product: "LILY", sku: "LILY-6", title: "百合"),
            CatalogLine(product: "LILY", sku: "ROSE-11", title: "百合", price: "1.00"),
        ]
        #expect(throws: ImportError.invalidRows([ImportIssue(line: 4, column: "sku_code", reason: "ROSE-11 already appears on line 2")])) {
            try fixture.importCatalogLines(lines)
        }
        let skipped = try fixture.importCatalogLines(lines, .init(skipInvalid: true))
        #expect(skipped.summary.skus == counts(2, 0, 0, invalid: 1))
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "ROSE"))
        #expect(rose.skus.map(\.priceCents) == [12_900])
    }

    @Test func theLineOfAnInvalidRowIsItsPhysicalStartAfterMultiLineFields() throws {
        let fixture = try TestShop()
        let lines = [
            CatalogLine(product: "ROSE", sku: "ROSE-11", description: "第一行\n第二行\n第三行"), // lines 2-4
            CatalogLine(product: "LILY", sku: "LILY-6", title: "百合", stock: "lots"), // line 5
        ]
        #expect(throws: ImportError.invalidRows([ImportIssue(line: 5, column: "stock", reason: "\"lots\" is not a whole number")])) {
            try fixture.importCatalogLines(lines)
        }
    }

    @Test func aCRLFFileWithABOMAndUnquotedFieldsImports() throws {
        let fixture = try TestShop()
        let text = "\u{FEFF}" + CatalogLine.header + "\r\n"
            + "ROSE,ROSE-11,11枝,红玫瑰花束,,花束/玫瑰,129.00,,20,\"甜蜜, 浪漫\r\n而且\"\"热烈\"\"\",,,,on_sale\r\n\r\n"
        let outcome = try fixture.importCatalogCSV(text)
        #expect(outcome.summary.skus == counts(1, 0, 0))
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "ROSE"))
        #expect(rose.description == "甜蜜, 浪漫\r\n而且\"热烈\"")
        #expect(rose.skus.map(\.stock) == [20])
    }

    // MARK: The header

    @Test func anUnknownColumnInTheHeaderIsReported() throws {
        let fixture = try TestShop()
        let text = CatalogLine.header + ",colour\n" + CatalogLine().csv + ",\"红\"\n"
        #expect(throws: ImportError.badHeader([ImportIssue(line: 1, column: "colour", reason: "unknown column")])) {
            try fixture.importCatalogCSV(text)
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    @Test func aMissingRequiredColumnInTheHeaderIsReported() throws {
        let fixture = try TestShop()
        let text = "product_code,sku_code,sku_name,title,category,stock\nROSE,ROSE-11,11枝,红玫瑰,花束,3\n"
        #expect(throws: ImportError.badHeader([
            ImportIssue(line: 1, column: "price", reason: "required column is missing from the header"),
        ])) {
            try fixture.importCatalogCSV(text)
        }
    }

    @Test func onlyTheRequiredColumnsAreEnoughAndTheOptionalOnesDefault() throws {
        let fixture = try TestShop()
        let text = "Product_Code, sku_code ,sku_name,title,category,price,stock\nROSE,ROSE-11,11枝,红玫瑰,花束,129,3\n"
        try fixture.importCatalogCSV(text)
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "ROSE"))
        #expect(rose.summary.subtitle == "")
        #expect(rose.summary.originalPriceCents == 12_900)
        #expect(rose.images.isEmpty)
        #expect(rose.attributes.isEmpty)
    }

    @Test func aColumnNamedTwiceIsReported() throws {
        let fixture = try TestShop()
        let text = CatalogLine.header + ",title\n" + CatalogLine().csv + ",\"again\"\n"
        #expect(throws: ImportError.badHeader([ImportIssue(line: 1, column: "title", reason: "column appears twice in the header")])) {
            try fixture.importCatalogCSV(text)
        }
    }

    @Test func aFileThatCannotBeReadAsAWholeFailsEvenWhenSkippingInvalidRows() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines(baseLines)
        let before = try fixture.catalogSnapshot()
        let skip = CatalogImporter.Options(skipInvalid: true)
        let valid = CatalogLine(product: "NEW", sku: "NEW-1", title: "新品")
        #expect(throws: ImportError.badHeader([ImportIssue(line: 1, column: "colour", reason: "unknown column")])) {
            try fixture.importCatalogCSV(CatalogLine.header + ",colour\n" + valid.csv + ",\"红\"\n", skip)
        }
        #expect(throws: ImportError.invalidRows([ImportIssue(line: 3, column: "file", reason: "a quoted field is never closed")])) {
            try fixture.importCatalogCSV(CatalogLine.file([valid]) + "\"unterminated\n", skip)
        }
        #expect(throws: ImportError.badHeader([ImportIssue(line: 1, column: "header", reason: "the file is empty")])) {
            try fixture.importCatalogCSV("\n", skip)
        }
        #expect(try fixture.catalogSnapshot() == before)
    }

    @Test func anEmptyFileIsReported() throws {
        let fixture = try TestShop()
        #expect(throws: ImportError.badHeader([ImportIssue(line: 1, column: "header", reason: "the file is empty")])) {
            try fixture.importCatalogCSV("")
        }
    }

    // MARK: Cells

    @Test func cellsThatLookLikeFormulasAreStoredAndReturnedAsText() throws {
        let fixture = try TestShop()
        let title = "=HYPERLINK(\"http://evil.example\",\"点我\")"
        let subtitle = "+86 鲜花速递"
        let description = "-2+3\n@SUM(A1:A9)\n=1+1"
        try fixture.importCatalogLines([
            CatalogLine(product: "F1", sku: "F1-1", skuName: "@home", title: title, subtitle: subtitle, description: description),
            CatalogLine(product: "F2", sku: "F2-1", skuName: "-1", title: "@玫瑰", description: "+1"),
            CatalogLine(product: "F3", sku: "F3-1", title: "-10% 玫瑰"),
        ])
        let f1 = try fixture.catalogService.product(try fixture.catalogProductID(code: "F1"))
        #expect(f1.summary.title == title)
        #expect(f1.summary.subtitle == subtitle)
        #expect(f1.description == description)
        #expect(f1.skus.map(\.name) == ["@home"])
        let f2 = try fixture.catalogService.product(try fixture.catalogProductID(code: "F2"))
        #expect(f2.summary.title == "@玫瑰")
        #expect(f2.description == "+1")
        #expect(f2.skus.map(\.name) == ["-1"])
        #expect(Set(try fixture.catalogTitles()) == [title, "@玫瑰", "-10% 玫瑰"])
        #expect(try fixture.catalogTitles("=HYPERLINK") == [title])
    }

    @Test func aRowWithSeveralProblemsReportsEachColumn() throws {
        let fixture = try TestShop()
        let line = CatalogLine(product: "玫瑰 1", sku: "", skuName: String(repeating: "长", count: 61), category: "花束//玫瑰", stock: "1.5",
                               cover: "javascript:alert(1)", images: "https://ok.example/a.jpg|ftp://x", attributes: "[1,2]",
                               status: "deleted")
        do {
            try fixture.importCatalogLines([line])
            Issue.record("an invalid row was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.allSatisfy { $0.line == 2 })
            #expect(issues.map(\.column) == ["attributes", "category", "cover_url", "image_urls", "product_code", "sku_code",
                                             "sku_name", "status", "stock"])
        }
    }

    @Test func imagesKeepTheirOrderAndAttributesTheirValues() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines(baseLines)
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "ROSE"))
        #expect(rose.images == ["https://img.example.com/rose-1.jpg", "https://img.example.com/rose-2.jpg"])
        #expect(rose.attributes == ["花语": .string("热恋"), "stems": .number(11)])
        #expect(rose.summary.coverURL == "https://img.example.com/rose.jpg")
        #expect(rose.summary.priceCents == 12_900)
        #expect(rose.summary.originalPriceCents == 15_900)
        #expect(rose.summary.inStock)
        #expect(rose.skus.map(\.stock) == [20, 5])
    }

    @Test func attributesKeepTheirJSONTypes() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(attributes: #"{"one":1,"zero":0,"yes":true,"no":false,"half":1.5,"none":null,"list":[1,"x"],"nested":{"k":"v"}}"#),
        ])
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "P1"))
        #expect(rose.attributes == [
            "one": .number(1), "zero": .number(0), "yes": .bool(true), "no": .bool(false), "half": .number(1.5), "none": .null,
            "list": .array([.number(1), .string("x")]), "nested": .object(["k": .string("v")]),
        ])
    }

    // MARK: Categories

    @Test func aCategoryPathCreatesATreeOnce() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "A", sku: "A-1", category: "花束/玫瑰"),
            CatalogLine(product: "B", sku: "B-1", category: " 花束 / 玫瑰 "),
            CatalogLine(product: "C", sku: "C-1", category: "花束/百合"),
            CatalogLine(product: "D", sku: "D-1", category: "绿植"),
        ])
        let tree = try fixture.catalogService.categoryTree(unlessAt: nil).current
        #expect(tree.map(\.name) == ["花束", "绿植"])
        #expect(tree.allSatisfy { $0.parentID == nil })
        let bouquets = try #require(tree.first)
        #expect(bouquets.children.map(\.name) == ["玫瑰", "百合"])
        #expect(bouquets.children.allSatisfy { $0.parentID == bouquets.id && $0.children.isEmpty })
        #expect(try fixture.catalogSnapshot().categoryCount == 4)
        let roses = try fixture.catalogCategoryID(path: "花束/玫瑰")
        #expect(try fixture.catalogService.product(try fixture.catalogProductID(code: "B")).categoryID == roses)
    }

    // MARK: JSON lines

    @Test func jsonLinesImportWithIntegerStockAndObjectAttributes() throws {
        let fixture = try TestShop()
        let text = """
            {"product_code":"SUN","sku_code":"SUN-1","sku_name":"单枝","title":"向日葵","category":"花束/向日葵","price":"9.90","stock":5,"attributes":{"花语":"忠诚","stems":1},"subtitle":null}

            {"product_code":"SUN","sku_code":"SUN-3","sku_name":"三枝","title":"向日葵","category":"花束/向日葵","price":"25","stock":0}
            """
        let outcome = try fixture.importCatalogJSONLines(text)
        #expect(outcome.summary.skus == counts(2, 0, 0))
        let sun = try fixture.catalogService.product(try fixture.catalogProductID(code: "SUN"))
        #expect(sun.skus.map(\.stock) == [5, 0])
        #expect(sun.skus.map(\.priceCents) == [990, 2_500])
        #expect(sun.attributes == ["花语": .string("忠诚"), "stems": .number(1)])
        #expect(try fixture.importCatalogJSONLines(text).summary.skus == counts(0, 0, 2))
    }

    @Test func jsonLinesWithAStringStockOrStringAttributesAreIssues() throws {
        let fixture = try TestShop()
        let text = """
            {"product_code":"SUN","sku_code":"SUN-1","sku_name":"单枝","title":"向日葵","category":"花束","price":"9.90","stock":"5"}
            {"product_code":"SUN","sku_code":"SUN-2","sku_name":"两枝","title":"向日葵","category":"花束","price":"19","stock":2,"attributes":"{\\"a\\":1}"}
            {"product_code":"SUN","sku_code":"SUN-3","sku_name":"三枝","title":"向日葵","category":"花束","price":29.9,"stock":3}
            {"product_code":"SUN","sku_code":"SUN-4","sku_name":"四枝","title":"向日葵","category":"花束","price":"39","stock":2.5}
            ["not", "an", "object"]
            {"product_code":"SUN","sku_code":"SUN-6","sku_name":"六枝","title":"向日葵","category":"花束","price":"59","stock":6,"colour":"黄"}
            """
        do {
            try fixture.importCatalogJSONLines(text)
            Issue.record("invalid JSON lines were imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.description) == [
                "line 1: stock: must be an integer",
                "line 2: attributes: must be a JSON object",
                "line 3: price: must be a string",
                "line 4: stock: must be a whole number",
                "line 5: line: is not a JSON object",
                "line 6: colour: unknown key",
            ])
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    // MARK: Files

    @Test func aFileOverTheSizeLimitIsRefusedAndOneAtTheLimitIsNot() throws {
        let text = CatalogLine.file(baseLines)
        let size = text.utf8.count
        let fixture = try TestShop { $0.catalog.importMaxBytes = size - 1 }
        let path = fixture.directory.appendingPathComponent("catalog.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ImportError.fileTooLarge(bytes: size, limit: size - 1)) {
            try fixture.shop.catalogImporter.importFile(at: path, options: .init())
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)

        let roomy = CatalogImporter(pool: fixture.pool, search: fixture.shop.search, clock: fixture.clock.clock, maxBytes: size)
        #expect(try roomy.importFile(at: path, options: .init()).summary.skus == counts(3, 0, 0))
    }

    @Test func aMissingFileOrAnUnknownExtensionIsRefused() throws {
        let fixture = try TestShop()
        let missing = fixture.directory.appendingPathComponent("nowhere.csv").path
        #expect(throws: ImportError.unreadable("\(missing) does not exist or cannot be read")) {
            try fixture.shop.catalogImporter.importFile(at: missing, options: .init())
        }
        let xlsx = fixture.directory.appendingPathComponent("catalog.xlsx").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: xlsx))
        #expect(throws: ImportError.unsupportedFormat(xlsx)) {
            try fixture.shop.catalogImporter.importFile(at: xlsx, options: .init())
        }
    }

    @Test func aJSONLinesFileImportsThroughItsExtension() throws {
        let fixture = try TestShop()
        let path = fixture.directory.appendingPathComponent("catalog.jsonl").path
        try Data(#"{"product_code":"A","sku_code":"A-1","sku_name":"一","title":"雏菊","category":"花束","price":"1","stock":1}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        #expect(try fixture.shop.catalogImporter.importFile(at: path, options: .init()).summary.skus == counts(1, 0, 0))
    }

    @Test func aFileThatIsNotUTF8IsUnreadable() throws {
        let fixture = try TestShop()
        let bytes = Array(CatalogLine.header.utf8) + [0x0A, 0xC3, 0x28, 0x0A]
        #expect(throws: ImportError.notUTF8(line: 2, gb18030: false)) {
            try fixture.shop.catalogImporter.importData(bytes, format: .csv, options: .init())
        }
    }

    @Test func anythingButARegularFileIsRefusedEvenBehindASymlink() throws {
        let fixture = try TestShop { $0.catalog.importMaxBytes = 64 }
        let fifo = fixture.directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let throughFIFO = fixture.directory.appendingPathComponent("catalog.csv").path
        try FileManager.default.createSymbolicLink(atPath: throughFIFO, withDestinationPath: fifo)
        #expect(throws: ImportError.unreadable("\(throughFIFO) is not a regular file")) {
            try fixture.shop.catalogImporter.importFile(at: throughFIFO, options: .init())
        }
        let directory = fixture.directory.appendingPathComponent("folder.csv").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        #expect(throws: ImportError.unreadable("\(directory) is not a regular file")) {
            try fixture.shop.catalogImporter.importFile(at: directory, options: .init())
        }
        let articles = fixture.directory.appendingPathComponent("articles.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: articles, withDestinationPath: fifo)
        #expect(throws: ImportError.unreadable("\(articles) is not a regular file")) {
            try fixture.shop.articleImporter.importFile(at: articles, options: .init())
        }
    }

    @Test func aSymlinkToAFileOverTheLimitIsMeasuredByItsTarget() throws {
        let text = CatalogLine.file(baseLines)
        let fixture = try TestShop { $0.catalog.importMaxBytes = 64 }
        let big = fixture.directory.appendingPathComponent("big.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: big))
        let link = fixture.directory.appendingPathComponent("small.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: big)
        #expect(throws: ImportError.fileTooLarge(bytes: text.utf8.count, limit: 64)) {
            try fixture.shop.catalogImporter.importFile(at: link, options: .init())
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    @Test func aMissingOrEmptySKUNameDefaultsToTheDefaultVariant() throws {
        let fixture = try TestShop()
        try fixture.importCatalogCSV("product_code,sku_code,title,category,price,stock\nVASE,VASE-1,玻璃花瓶,家居,59,4\n")
        try fixture.importCatalogCSV(CatalogLine.file([CatalogLine(product: "CARD", sku: "CARD-1", skuName: " ", title: "贺卡")]))
        try fixture.importCatalogJSONLines("""
            {"product_code":"BOX","sku_code":"BOX-1","title":"礼盒","category":"礼品","price":"9","stock":1}
            {"product_code":"BAG","sku_code":"BAG-1","sku_name":"","title":"纸袋","category":"礼品","price":"1","stock":1}
            """)
        for code in ["VASE", "CARD", "BOX", "BAG"] {
            let product = try fixture.catalogService.product(try fixture.catalogProductID(code: code))
            #expect(product.skus.map(\.name) == ["默认"], "\(code)")
        }
    }

    @Test func twoSKUsOfOneProductStillNeedDistinctNames() throws {
        let fixture = try TestShop()
        let text = "product_code,sku_code,title,category,price,stock\nVASE,VASE-1,玻璃花瓶,家居,59,4\nVASE,VASE-2,玻璃花瓶,家居,69,4\n"
        #expect(throws: ImportError.invalidRows([ImportIssue(
            line: 3, column: "sku_name",
            reason: "VASE already has a SKU named 默认 on line 2; the SKUs of one product need distinct names")])) {
            try fixture.importCatalogCSV(text)
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
        let named = CatalogLine.file([CatalogLine(product: "P", sku: "P-1", skuName: "大"), CatalogLine(product: "P", sku: "P-2", skuName: "大"),
                                      CatalogLine(product: "Q", sku: "Q-1", skuName: "大")])
        let outcome = try fixture.importCatalogCSV(named, .init(skipInvalid: true))
        #expect(outcome.summary.skus == counts(2, 0, 0, invalid: 1))
    }
}
