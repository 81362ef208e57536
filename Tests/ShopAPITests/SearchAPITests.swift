import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// 24 products mention 玫瑰 only in their description, one in its title, one in its subtitle;
/// two hold query syntax in their text.
private func searchCSV() -> String {
    var lines = ["product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status"]
    lines.append("T,T-1,默认,十一枝玫瑰,,花束,129.00,,5,,,,,on_sale")
    lines.append("S,S-1,默认,春日礼盒,玫瑰与百合,礼盒,99.00,,5,,,,,on_sale")
    for number in 1...24 {
        lines.append("D\(number),D\(number)-1,默认,混搭花束 \(number)号,,花束,59.00,,5,主花材：进口玫瑰,,,,on_sale")
    }
    lines.append("Q,Q-1,默认,\"\"\"限量\"\"款 满100-20\",,礼盒,10.00,,5,\"OR * 50%_off a\"\"b\",,,,on_sale")
    lines.append("OFF,OFF-1,默认,下架玫瑰,,花束,10.00,,5,,,,,off_sale")
    return lines.joined(separator: "\n") + "\n"
}

private func searchAPI() throws -> TestAPI {
    let fixture = try TestAPI()
    let path = fixture.directory.appendingPathComponent("search.csv").path
    try Data(searchCSV().utf8).write(to: URL(fileURLWithPath: path))
    _ = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
    return fixture
}

private func titles(_ response: TestResponse) -> [String] {
    (try? response.decode(PageResponse<ProductSummaryResponse>.self))?.items.map(\.title) ?? []
}

private func productPage(_ response: TestResponse) throws -> PageResponse<ProductSummaryResponse> {
    try response.decode(PageResponse<ProductSummaryResponse>.self)
}

@Suite("Search API: every field, pages, literal text")
struct SearchAPITests {
    @Test func aTwoCharacterSearchFindsDescriptionsAndPagesThroughEveryMatch() throws {
        let fixture = try searchAPI()
        let first = try fixture.send(Request(method: "GET", path: "/api/v1/products", query: ["q": "玫瑰", "per_page": "10"]))
        #expect(first.status == 200)
        #expect(try productPage(first).total == 26)
        #expect(try productPage(first).page == 1)
        #expect(try productPage(first).perPage == 10)
        #expect(titles(first).prefix(2) == ["十一枝玫瑰", "春日礼盒"], "title, then subtitle, then descriptions")
        var seen = titles(first)
        for page in 2...3 {
            let next = try fixture.send(Request(method: "GET", path: "/api/v1/products",
                                                query: ["q": "玫瑰", "per_page": "10", "page": String(page)]))
            #expect(try productPage(next).total == 26)
            seen += titles(next)
        }
        #expect(seen.count == 26)
        #expect(Set(seen).count == 26)
        #expect(!seen.contains("下架玫瑰"))
        // One character reaches the descriptions too.
        let one = try fixture.send(Request(method: "GET", path: "/api/v1/products", query: ["q": "瑰"]))
        #expect(try productPage(one).total == 26)
    }

    @Test func searchesPastTheLimitOfAnAddressAre429RateLimitedUntilTheMinuteEnds() throws {
        let fixture = try TestAPI { $0.search.maxPerMinutePerIP = 2 }
        func search(from address: String) throws -> TestResponse {
            try fixture.send("GET", "/api/v1/products", query: ["q": "玫瑰"], from: address)
        }
        for _ in 0..<2 { #expect(try search(from: "10.3.0.1").status == 200) }
        let refused = try search(from: "10.3.0.1")
        expectError(refused, 429, "rate_limited")
        #expect((refused.error?.retryAfter).map { (1...60).contains($0) } == true, "\(refused.text)")
        #expect(try fixture.send("GET", "/api/v1/products", from: "10.3.0.1").status == 200, "a list without q is no search")
        #expect(try search(from: "10.3.0.2").status == 200)
        fixture.clock.advance(by: 60)
        #expect(try search(from: "10.3.0.1").status == 200)
    }

    @Test(arguments: ["\"", "*", "OR", "or", "-", "%", "_", "50%_", "a\"b", "\"限量\"", "-20"])
    func syntaxInTheQueryIsSearchedAsText(_ query: String) throws {
        let fixture = try searchAPI()
        let response = try fixture.send(Request(method: "GET", path: "/api/v1/products", query: ["q": query]))
        #expect(response.status == 200, "\(response.text)")
        #expect(titles(response) == ["\"限量\"款 满100-20"], "\(query)")
        #expect(try productPage(response).total == 1)
    }
}
