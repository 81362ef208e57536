import Foundation
import ShopCore
import ShopTestSupport
import Testing

/// `shop import catalog` as an operator runs it: the built binary on a test database, stderr a pipe
/// (not a terminal), the language from LANG.
@Suite("shop import catalog")
struct ImportCommandTests {
    static var binary: URL? { PaymentSimulateCommandTests.binary }

    private static let header = "product_code,sku_code,sku_name,title,category,price,stock"

    /// Runs `shop` with `LANG=language`; answers exit status, stdout and stderr.
    private static func run(_ arguments: [String], shop: TestShop, language: String = "C.UTF-8") throws -> (Int32, String, String) {
        guard let executable = binary else { throw FixtureError("no shop executable") }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Repository.root()
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHOP_") && !$0.key.hasPrefix("LC_") }
        environment.merge(TestDatabase.environment(for: shop.config)) { $1 }
        environment["LANG"] = language
        environment["SHOP_MEDIA_PATH"] = shop.directory.appendingPathComponent("media").path
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    private static func file(_ shop: TestShop, _ name: String, _ bytes: [UInt8]) throws -> String {
        let url = shop.directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func aDryRunSaysWhatItWouldCreateAndPrintsItsTotalsOnce() throws {
        let shop = try TestShop()
        let path = try Self.file(shop, "dry.csv", Array((Self.header + "\nP1,P1-1,小,玫瑰,花束,9.90,3\nP1,P1-2,大,玫瑰,花束,19.90,3\n").utf8))
        let (status, output, errors) = try Self.run(["import", "catalog", path, "--dry-run"], shop: shop)
        #expect(status == 0, "\(output)\(errors)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines == ["dry run, nothing was written: would create 1 products and 2 SKUs, would update 0 products and 0 SKUs",
                          "products: created=1 updated=0 unchanged=0", "skus: created=2 updated=0 unchanged=0 invalid=0"])
        #expect(!errors.contains("\r"), "no progress line when stderr is not a terminal: \(errors)")
        #expect(try shop.shop.catalog.hasProducts() == false)

        let (zhStatus, zh, _) = try Self.run(["import", "catalog", path, "--dry-run"], shop: shop, language: "zh_CN.UTF-8")
        #expect(zhStatus == 0)
        #expect(zh.hasPrefix("试运行，未写入任何内容：将新建 1 个商品、2 个 SKU"), "\(zh)")
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func aRealImportPrintsOnlyTheTwoTotalLines() throws {
        let shop = try TestShop()
        let path = try Self.file(shop, "real.csv", Array((Self.header + "\nP1,P1-1,小,玫瑰,花束,9.90,3\n").utf8))
        let (status, output, errors) = try Self.run(["import", "catalog", path], shop: shop)
        #expect(status == 0, "\(output)\(errors)")
        #expect(output == "products: created=1 updated=0 unchanged=0\nskus: created=1 updated=0 unchanged=0 invalid=0\n")
        #expect(try shop.shop.catalog.hasProducts())
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func aHeaderProblemIsReportedAsOneWithItsColumns() throws {
        let shop = try TestShop()
        let path = try Self.file(shop, "header.csv", Array("product_code,sku_code,title,colour,category,stock\nP1,P1-1,玫瑰,红,花束,3\n".utf8))
        let (status, _, errors) = try Self.run(["import", "catalog", path], shop: shop)
        #expect(status == 1)
        #expect(errors.contains("line 1: colour: unknown column"), "\(errors)")
        #expect(errors.contains("line 1: price: required column is missing from the header"), "\(errors)")
        #expect(errors.contains("the header row is wrong (colour, price)"), "\(errors)")
        #expect(!errors.contains("invalid row"), "\(errors)")

        let (_, _, zh) = try Self.run(["import", "catalog", path], shop: shop, language: "zh_CN.UTF-8")
        #expect(zh.contains("表头有误（colour, price）"), "\(zh)")
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func aGBKFileGetsAHintAndImportsWithEncodingGB18030() throws {
        let shop = try TestShop()
        let text = Self.header + "\nGBK,GBK-1,十一枝,红玫瑰花束,花束/玫瑰,129.00,5\n"
        let path = try Self.file(shop, "excel.csv", try #require(GB18030Bytes.encode(text)))
        let (status, _, errors) = try Self.run(["import", "catalog", path], shop: shop)
        #expect(status == 1)
        #expect(errors.contains("CSV UTF-8") && errors.contains("--encoding gb18030"), "\(errors)")
        let (_, _, zh) = try Self.run(["import", "catalog", path], shop: shop, language: "zh_CN.UTF-8")
        #expect(zh.contains("另存为") && zh.contains("CSV UTF-8"), "\(zh)")
        #expect(try shop.shop.catalog.hasProducts() == false)

        let (imported, output, importErrors) = try Self.run(["import", "catalog", path, "--encoding", "gb18030"], shop: shop)
        #expect(imported == 0, "\(importErrors)")
        #expect(output.contains("skus: created=1 updated=0 unchanged=0 invalid=0"))
        let (usage, _, usageErrors) = try Self.run(["import", "catalog", path, "--encoding", "latin1"], shop: shop)
        #expect(usage == 2, "\(usageErrors)")
    }
}

/// GB18030 bytes of a string, through glibc's iconv (as Excel in China would have written them).
enum GB18030Bytes {
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
