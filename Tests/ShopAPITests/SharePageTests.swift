import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

private let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,"
    + "cover_url,image_urls,attributes,status"

private extension TestAPI {
    /// Imports one product per line (`code, title, subtitle, cover, status`); answers product ids by code.
    func shareSeed(_ products: [(code: String, title: String, subtitle: String, cover: String, status: String)]) throws -> [String: Int64] {
        let lines = products.map { product in
            [product.code, "\(product.code)-1", "标准", product.title, product.subtitle, "花束/玫瑰", "52.00", "", "3",
             "描述", product.cover, "", "", product.status].map(Self.csvField).joined(separator: ",")
        }
        let outcome = try shop.catalogImporter.importData(Array(([header] + lines).joined(separator: "\n").utf8) + [10],
                                                          format: .csv, options: .init())
        guard outcome.issues.isEmpty else { throw FixtureError("seed rejected: \(outcome.issues)") }
        return try shop.pool.read { db in
            var ids: [String: Int64] = [:]
            for row in try db.query("SELECT id, code FROM products") { ids[try row.string("code")] = try row.int64("id") }
            return ids
        }
    }

    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    func share(_ path: String, host: String = "shop.example.com:8080", etag: String? = nil,
               accept: String = "text/html,application/xhtml+xml,*/*;q=0.8") throws -> TestResponse {
        var headers = [("Host", host), ("Accept", accept)]
        if let etag { headers.append(("If-None-Match", etag)) }
        return try send("GET", path, headers: headers)
    }
}

/// The `content` of `<meta property="NAME">` in a share page.
private func meta(_ property: String, in html: String) -> String? {
    let marker = "<meta property=\"\(property)\" content=\""
    guard let start = html.range(of: marker) else { return nil }
    let rest = html[start.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
}

@Suite("Share pages: link previews for chat apps")
struct SharePageTests {
    @Test func aProductsSharePageCarriesOpenGraphTagsWithAbsoluteLinksAndThePrice() throws {
        let app = try TestAPI()
        let ids = try app.shareSeed([("ROSE", "红玫瑰花束", "把心意说出口", "/media/demo/rose-red.svg", "on_sale")])
        let id = try #require(ids["ROSE"])
        let page = try app.share("/share/products/\(id)")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(meta("og:type", in: page.text) == "product")
        #expect(meta("og:title", in: page.text) == "红玫瑰花束")
        #expect(meta("og:description", in: page.text) == "把心意说出口")
        #expect(meta("og:image", in: page.text) == "http://shop.example.com:8080/media/demo/rose-red.png")
        #expect(meta("og:url", in: page.text) == "http://shop.example.com:8080/share/products/\(id)")
        #expect(meta("product:price:amount", in: page.text) == "52.00")
        #expect(meta("product:price:currency", in: page.text) == "CNY")
        #expect(page.text.contains("href=\"/#/product/\(id)\""), "a link into the storefront")
    }

    @Test func unknownAndOffSaleProductsAndUnknownArticlesAre404Pages() throws {
        let app = try TestAPI()
        let ids = try app.shareSeed([("GONE", "下架的花", "", "", "off_sale")])
        for path in ["/share/products/\(try #require(ids["GONE"]))", "/share/products/999999", "/share/products/abc",
                     "/share/articles/999999", "/share/articles/-1"] {
            let page = try app.share(path)
            #expect(page.status == 404, "\(path)")
            #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(!page.text.contains("og:title"))
            let api = try app.share(path, accept: "application/json")
            #expect(api.status == 404)
            expectError(api, 404, "not_found")
        }
    }

    @Test func catalogueTextIsEscapedInElementsAndAttributes() throws {
        let app = try TestAPI()
        let title = "<script>alert('x')</script> \"花\" & 草"
        let ids = try app.shareSeed([("XSS", title, "a\"><img src=x onerror=alert(1)>", "", "on_sale")])
        let page = try app.share("/share/products/\(try #require(ids["XSS"]))")
        #expect(page.status == 200)
        #expect(!page.text.contains("<script>"))
        #expect(!page.text.contains("<img src=x"))
        #expect(page.text.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;花&quot; &amp; 草"))
        #expect(page.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
    }

    @Test func aHostHeaderThatIsNotAHostNameIsNotReflectedAndPublicURLWins() throws {
        let plain = try TestAPI()
        let id = try #require(try plain.shareSeed([("ROSE", "玫瑰", "", "/media/demo/rose-red.svg", "on_sale")])["ROSE"])
        let hostile = try plain.share("/share/products/\(id)", host: "evil.example\"><script>x</script>")
        #expect(!hostile.text.contains("evil.example"))
        #expect(meta("og:url", in: hostile.text) == "http://localhost/share/products/\(id)")

        let configured = try TestAPI { $0.app.publicURL = "https://floral.example.cn/" }
        let configuredID = try #require(try configured.shareSeed([("ROSE", "玫瑰", "", "/media/demo/rose-red.svg", "on_sale")])["ROSE"])
        let page = try configured.share("/share/products/\(configuredID)", host: "10.0.0.5:8081")
        #expect(meta("og:url", in: page.text) == "https://floral.example.cn/share/products/\(configuredID)")
        #expect(meta("og:image", in: page.text) == "https://floral.example.cn/media/demo/rose-red.png")
    }

    @Test func sharePagesAreCacheableAndAnswer304ToTheirTag() throws {
        let app = try TestAPI { $0.app.publicURL = "https://floral.example.cn" }
        let id = try #require(try app.shareSeed([("ROSE", "玫瑰", "", "", "on_sale")])["ROSE"])
        let first = try app.share("/share/products/\(id)")
        #expect(first.headers["Cache-Control"] == "public, max-age=300")
        #expect(first.headers["Vary"] == nil)
        let etag = try #require(first.headers["ETag"])
        #expect(try app.share("/share/products/\(id)", etag: etag).status == 304)
        // A new price is a new body and a new tag.
        try app.shop.pool.write { db in _ = try db.run("UPDATE products SET price_cents = 4200 WHERE id = \(id)") }
        let repriced = try app.share("/share/products/\(id)", etag: etag)
        #expect(repriced.status == 200)
        #expect(meta("product:price:amount", in: repriced.text) == "42.00")
    }

    @Test func inProductionOnlyThePublicURLNamesTheOriginWhateverTheHostOrAProxySays() throws {
        let app = try TestAPI(server: .with { $0.trustedProxies = "10.0.0.0/8" }) {
            $0.app.env = .production
            $0.app.publicURL = "https://floral.example.cn"
        }
        let id = try #require(try app.shareSeed([("ROSE", "玫瑰", "", "/media/demo/rose-red.svg", "on_sale")])["ROSE"])
        let forged = [("Host", "evil.example"), ("X-Forwarded-Host", "evil.example"), ("X-Forwarded-Proto", "http"),
                      ("Accept", "text/html")]
        for peer in ["10.0.0.5", "203.0.113.9"] {
            let page = try app.send("GET", "/share/products/\(id)", headers: forged, from: peer)
            #expect(page.status == 200)
            #expect(!page.text.contains("evil.example"), "\(page.text)")
            #expect(meta("og:url", in: page.text) == "https://floral.example.cn/share/products/\(id)")
            #expect(meta("og:image", in: page.text) == "https://floral.example.cn/media/demo/rose-red.png")
            #expect(page.text.contains("<link rel=\"canonical\" href=\"https://floral.example.cn/share/products/\(id)\">"))
            #expect(page.headers["Cache-Control"] == "public, max-age=300")
        }
    }

    @Test func inDevelopmentAPageBuiltFromTheHostVariesWithItAndIsNeverPublic() throws {
        let app = try TestAPI()
        let id = try #require(try app.shareSeed([("ROSE", "玫瑰", "", "", "on_sale")])["ROSE"])
        let page = try app.share("/share/products/\(id)")
        #expect(meta("og:url", in: page.text) == "http://shop.example.com:8080/share/products/\(id)")
        #expect(page.headers["Cache-Control"] == "private, max-age=300")
        #expect(page.headers["Vary"] == "Host")
        let etag = try #require(page.headers["ETag"])
        let unchanged = try app.share("/share/products/\(id)", etag: etag)
        #expect(unchanged.status == 304)
        #expect(unchanged.headers["Vary"] == "Host" && unchanged.headers["Cache-Control"] == "private, max-age=300")

        let proxied = try TestAPI(server: .with { $0.trustedProxies = "10.0.0.0/8" })
        let proxiedID = try #require(try proxied.shareSeed([("ROSE", "玫瑰", "", "", "on_sale")])["ROSE"])
        let viaProxy = try proxied.send("GET", "/share/products/\(proxiedID)", headers: [("Host", "node1:8081"),
            ("X-Forwarded-Host", "shop.example"), ("X-Forwarded-Proto", "https"), ("Accept", "text/html")], from: "10.0.0.5")
        #expect(meta("og:url", in: viaProxy.text) == "https://shop.example/share/products/\(proxiedID)")
        #expect(viaProxy.headers["Vary"] == "Host, X-Forwarded-Host, X-Forwarded-Proto")
        #expect(viaProxy.headers["Cache-Control"] == "private, max-age=300")
    }

    @Test func anArticlesSharePageShowsItsAuthorAndDoesNotCountAView() throws {
        let app = try TestAPI()
        _ = try app.register("13800000001", nickname: "花间小筑")
        try app.shop.moderation.setAuthor(true, phone: "13800000001", by: .commandLine(user: "test"))
        let author = try #require(try app.shop.pool.read { db in try db.scalarInt("SELECT id FROM users WHERE phone = '13800000001'") })
        let article = try app.shop.articles.publish(ArticleDraft(title: "插花入门", summary: "一只玻璃瓶开始", coverURL: "",
                                                                 content: "<p>正文</p>", categoryID: nil), by: UserID(author))
        let page = try app.share("/share/articles/\(article.id)")
        #expect(page.status == 200)
        #expect(meta("og:type", in: page.text) == "article")
        #expect(meta("og:title", in: page.text) == "插花入门")
        #expect(meta("og:description", in: page.text) == "一只玻璃瓶开始")
        #expect(meta("og:image", in: page.text) == nil, "no cover, no image tag")
        #expect(page.text.contains("花间小筑"))
        #expect(page.text.contains("href=\"/#/article/\(article.id)\""))
        #expect(try app.shop.articles.preview(article.id).views == 0, "a crawler's fetch is not a reader")
    }
}
