import Foundation
import Localization
import ShopTestSupport
import Testing
@testable import ShopCore

/// Enough SKU lines (with one product's rows spread apart) to span several write batches.
private func manyLines(_ count: Int) -> [CatalogLine] {
    (0..<count).map { index in
        // Product P0 gets a row at the start and one at the end: one product across batches.
        let product = index == count - 1 ? "P0" : "P\(index / 3)"
        return CatalogLine(product: product, sku: "S\(index)", skuName: "款\(index)", title: "商品\(product)",
                           price: "\(10 + index % 50).50", stock: "\(index % 7)")
    }
}

@Suite("Catalogue import: streaming, batches, encodings, header")
struct CatalogImportStreamingTests {
    // MARK: Across write batches

    @Test func aBadRowAfterSeveralWrittenBatchesStillWritesNothing() throws {
        let fixture = try TestShop()
        var lines = manyLines(CatalogImportSession.batchSize * 2 + 50)
        lines[lines.count - 2].stock = "-1"
        let badLine = lines.count  // the header is line 1
        do {
            try fixture.importCatalogLines(lines)
            Issue.record("a file with a bad row imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues == [ImportIssue(line: badLine, column: "stock", reason: "must not be negative")])
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
        #expect(try fixture.catalogSnapshot().skuCount == 0)
    }

    @Test func aFileLargerThanABatchImportsEveryRowOnceAndProductsFromTheirFirstRow() throws {
        let fixture = try TestShop()
        let lines = manyLines(CatalogImportSession.batchSize * 2 + 50)
        let products = Set(lines.map(\.product)).count
        let outcome = try fixture.importCatalogLines(lines)
        #expect(outcome.summary.skus.created == lines.count)
        #expect(outcome.summary.products.created == products)
        let snapshot = try fixture.catalogSnapshot()
        #expect(snapshot.skuCount == lines.count)
        #expect(snapshot.productCount == products)
        let first = try fixture.catalogService.product(try fixture.catalogProductID(code: "P0"))
        #expect(Set(first.skus.map(\.code)) == ["S0", "S1", "S2", "S\(lines.count - 1)"])
        #expect(first.summary.priceCents == 10_50)

        let again = try fixture.importCatalogLines(lines)
        #expect(again.summary.skus.unchanged == lines.count)
        #expect(again.summary.products.unchanged == products)
        #expect(try fixture.catalogSnapshot() == snapshot)
    }

    @Test func skippingInvalidRowsAcrossBatchesWritesEveryValidRow() throws {
        let fixture = try TestShop()
        var lines = manyLines(CatalogImportSession.batchSize + 20)
        lines[3].price = "free"
        lines[CatalogImportSession.batchSize + 5].stock = "x"
        let outcome = try fixture.importCatalogLines(lines, .init(skipInvalid: true))
        #expect(outcome.summary.skus.created == lines.count - 2)
        #expect(outcome.summary.skus.invalid == 2)
        #expect(outcome.issues.map(\.line) == [5, CatalogImportSession.batchSize + 7])
        #expect(try fixture.catalogSnapshot().skuCount == lines.count - 2)
    }

    @Test func progressIsReportedWithTheFinalRowCountAndAllTheBytes() throws {
        let fixture = try TestShop()
        let lines = manyLines(4_100)
        let bytes = Array(CatalogLine.file(lines).utf8)
        let seen = Locked<[CatalogImporter.Progress]>([])
        _ = try fixture.shop.catalogImporter.importData(bytes, format: .csv, options: .init()) { progress in
            seen.withLock { $0.append(progress) }
        }
        let reports = seen.withLock { $0 }
        #expect(reports.count >= 3)
        #expect(reports.last == CatalogImporter.Progress(rows: lines.count, bytesRead: bytes.count, totalBytes: bytes.count))
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.rows <= $1.rows && $0.bytesRead <= $1.bytesRead })
    }

    @Test func theProgressLineShowsPercentRowsAndRateInBothLanguages() {
        let progress = CatalogImporter.Progress(rows: 52_000, bytesRead: 45, totalBytes: 100)
        #expect(progress.line(in: .english, elapsedSeconds: 2) == "importing  45%  52000 rows  26000 rows/s")
        #expect(progress.line(in: .chinese, elapsedSeconds: 2) == "导入中  45%  52000 行  26000 行/秒")
    }

    // MARK: The header

    @Test func aHeaderProblemNamesEveryColumnAndIsNotAnInvalidRow() throws {
        let fixture = try TestShop()
        let text = "product_code,sku_code,title,title,colour,category,stock\nP,S,t,t,红,花束,3\n"
        do {
            try fixture.importCatalogCSV(text, .init(skipInvalid: true))
            Issue.record("a bad header imported")
        } catch let error as ImportError {
            #expect(error == .badHeader([
                ImportIssue(line: 1, column: "colour", reason: "unknown column"),
                ImportIssue(line: 1, column: "price", reason: "required column is missing from the header"),
                ImportIssue(line: 1, column: "title", reason: "column appears twice in the header"),
            ]))
            #expect(error.message.en.hasPrefix("the header row is wrong (colour, price, title)"))
            #expect(error.message.zh.hasPrefix("表头有误（colour, price, title）"))
            #expect(!error.message.en.contains("invalid row"))
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    // MARK: Encodings

    /// The base lines' file as GB18030 bytes (what Excel in China saves).
    private static func gbkFile() throws -> [UInt8] {
        let text = CatalogLine.file([CatalogLine(product: "GBK", sku: "GBK-1", skuName: "十一枝", title: "红玫瑰花束", category: "花束/玫瑰")])
        return try #require(GB18030.encode(text))
    }

    @Test func aGBKFileIsRefusedWithHowToSaveItAsUTF8() throws {
        let fixture = try TestShop()
        do {
            _ = try fixture.shop.catalogImporter.importData(try Self.gbkFile(), format: .csv, options: .init())
            Issue.record("a GBK file imported as UTF-8")
        } catch let error as ImportError {
            #expect(error == .notUTF8(line: 2, gb18030: true))
            #expect(error.message.en.contains("CSV UTF-8"))
            #expect(error.message.en.contains("--encoding gb18030"))
            #expect(error.message.zh.contains("CSV UTF-8"))
            #expect(error.message.zh.contains("另存为"))
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    @Test func aGBKFileImportsWithTheGB18030Encoding() throws {
        let fixture = try TestShop()
        let outcome = try fixture.shop.catalogImporter.importData(try Self.gbkFile(), format: .csv, options: .init(encoding: .gb18030))
        #expect(outcome.summary.skus.created == 1)
        let product = try fixture.catalogService.product(try fixture.catalogProductID(code: "GBK"))
        #expect(product.summary.title == "红玫瑰花束")
        #expect(product.skus.map(\.name) == ["十一枝"])
    }

    @Test func aGB18030CharacterSplitAcrossChunksIsDecoded() throws {
        let bytes = try #require(GB18030.encode(String(repeating: "玫瑰𠀀", count: 50)))
        let source = try GB18030ImportSource(MemoryImportSource(bytes, chunkSize: 7))
        var utf8: [UInt8] = []
        while let chunk = try source.next() { utf8 += chunk }
        #expect(String(decoding: utf8, as: UTF8.self) == String(repeating: "玫瑰𠀀", count: 50))
    }

    @Test func aFileThatIsNeitherUTF8NorGB18030SaysSo() throws {
        let fixture = try TestShop()
        let bytes = Array(CatalogLine.header.utf8) + [0x0A, 0x80, 0x0A]
        #expect(throws: ImportError.notUTF8(line: 2, gb18030: false)) {
            try fixture.shop.catalogImporter.importData(bytes, format: .csv, options: .init())
        }
        #expect(throws: ImportError.notGB18030) {
            try fixture.shop.catalogImporter.importData(bytes, format: .csv, options: .init(encoding: .gb18030))
        }
    }

    @Test func encodingNamesAreRead() {
        #expect(CatalogImporter.Encoding(name: "GBK") == .gb18030)
        #expect(CatalogImporter.Encoding(name: "gb18030") == .gb18030)
        #expect(CatalogImporter.Encoding(name: "UTF-8") == .utf8)
        #expect(CatalogImporter.Encoding(name: "latin1") == nil)
    }
}

/// GB18030 bytes of a string, through glibc's iconv (as Excel in China would have written them).
enum GB18030 {
    static func encode(_ text: String) -> [UInt8]? {
        let converter = iconv_open("GB18030", "UTF-8")
        guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count * 2 + 8)
        var inputLeft = input.count
        var outputLeft = output.count
        let result = input.withUnsafeMutableBytes { inBytes in
            output.withUnsafeMutableBytes { outBytes in
                var inPointer = inBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outPointer = outBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
                return iconv(converter, &inPointer, &inputLeft, &outPointer, &outputLeft)
            }
        }
        guard result != -1, inputLeft == 0 else { return nil }
        return Array(output.prefix(output.count - outputLeft))
    }
}

/// A value shared with a `@Sendable` closure.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
