import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// A fresh folder for `media.path`, removed when the value goes away.
private final class MediaFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("floral-media-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent("demo"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }
}

private extension TestAPI {
    func get(_ path: String) throws -> TestResponse {
        try send("GET", path)
    }
}

@Suite("Media: the shop's own images under /media/")
struct MediaAPITests {
    @Test func aDemoPictureIsAnSVGCachedForAYear() throws {
        let app = try TestAPI()
        let response = try app.get("/media/demo/rose-red.svg")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "image/svg+xml")
        #expect(response.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Content-Security-Policy"]?.contains("sandbox") == true)
        #expect(response.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }

    @Test func everyPictureTheDemoShopNamesIsServed() throws {
        let app = try TestAPI()
        let examples = Repository.root().appendingPathComponent("Examples")
        var urls: Set<String> = []
        for file in ["catalog.csv", "articles.jsonl", "authors.jsonl"] {
            let text = try String(contentsOf: examples.appendingPathComponent(file), encoding: .utf8)
            let pattern = try Regex(#"/media/[A-Za-z0-9._/-]+\.svg"#)
            urls.formUnion(text.matches(of: pattern).map { String(text[$0.range]) })
            #expect(!text.contains("img.floral.example"), "\(file) still points at a host that does not exist")
        }
        #expect(urls.count > 100)
        for url in urls.sorted() {
            let response = try app.get(url)
            #expect(response.status == 200, "\(url)")
            #expect(response.headers["Content-Type"] == "image/svg+xml", "\(url)")
        }
    }

    @Test func aFileInMediaPathIsServedAndWinsOverTheBuiltInOne() throws {
        let folder = try MediaFolder()
        let app = try TestAPI { $0.media.path = folder.url.path }
        try folder.write("<svg xmlns=\"http://www.w3.org/2000/svg\"><title>ours</title></svg>", to: "demo/rose-red.svg")
        // Written after the server started: read per request, so an import can add files while it runs.
        try folder.write("PNG bytes", to: "a1b2c3d4.png")

        let own = try app.get("/media/demo/rose-red.svg")
        #expect(own.status == 200)
        #expect(own.text.contains("<title>ours</title>"))
        let top = try app.get("/media/a1b2c3d4.png")
        #expect(top.status == 200)
        #expect(top.headers["Content-Type"] == "image/png")
        #expect(top.headers["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(top.text == "PNG bytes")
        #expect(try app.get("/media/demo/tulip-pink.svg").status == 200, "the built-in pictures are still there")
    }

    @Test func aMissingMediaPathFolderStillServesTheDemoPictures() throws {
        let app = try TestAPI { $0.media.path = "/nonexistent/floral-media" }
        #expect(try app.get("/media/demo/rose-red.svg").status == 200)
        expectError(try app.get("/media/rose-red.svg"), 404, "not_found")
    }

    @Test(arguments: ["/media/demo/no-such-picture.svg", "/media/no-such.png", "/media/nofolder/rose-red.svg"])
    func anUnknownFileIs404InTheErrorShape(_ path: String) throws {
        let app = try TestAPI()
        expectError(try app.get(path), 404, "not_found")
    }

    @Test func pathsThatTryToLeaveTheMediaFoldersAre404() throws {
        let folder = try MediaFolder()
        let app = try TestAPI { $0.media.path = folder.url.appendingPathComponent("demo").path }
        // A file beside the media folder, reachable only by climbing out of it.
        try folder.write("<svg>classified-bytes</svg>", to: "secret.svg")
        try folder.write("{}", to: "demo/config.json")
        try folder.write("<svg>invisible-bytes</svg>", to: "demo/.hidden.svg")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("demo/dir.svg"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("demo/link.svg").path,
                                                   withDestinationPath: folder.url.appendingPathComponent("secret.svg").path)
        // The router sees the path percent-decoded, so these are what `..%2F` and friends become.
        for path in ["/media/../secret.svg", "/media/../../etc/passwd", "/media/..", "/media/./secret.svg", "/media/demo/../secret.svg",
                     "/media/.hidden.svg", "/media/config.json", "/media/dir.svg", "/media/link.svg", "/media/..\\secret.svg",
                     "/media/%2e%2e/secret.svg", "/media/demo/demo/../../secret.svg"] {
            let response = try app.get(path)
            #expect(response.status == 404, "\(path) answered \(response.status)")
            #expect(!response.text.contains("classified-bytes") && !response.text.contains("invisible-bytes"), "\(path)")
        }
        #expect(try app.get("/media/rose-red.svg").status == 404, "media.path is the demo folder itself here: no such file")
    }

    @Test func aProfileAndAnArticleMayUseAMediaPathAsTheirPicture() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        let saved = try app.send("PATCH", "/api/v1/me", json: ["avatar_url": "/media/demo/avatar-tulip-pink.svg"], token: token)
        #expect(saved.status == 200)
        #expect(try saved.decode(UserResponse.self).avatarURL == "/media/demo/avatar-tulip-pink.svg")
        for bad in ["/media/../secret.svg", "/media/demo/notes.txt", "/etc/passwd.svg", "//evil.example/a.svg", "/media/a/b/c.svg"] {
            let refused = try app.send("PATCH", "/api/v1/me", json: ["avatar_url": bad], token: token)
            expectError(refused, 400, "validation_failed")
            #expect(refused.error?.field == "avatar_url", "\(bad)")
        }
    }

    @Test func aCatalogueImportTakesMediaPathsAsImageURLs() throws {
        let app = try TestAPI()
        let csv = """
            product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status
            TULIP,TULIP-9,9枝,粉色郁金香,,花束/郁金香,99,,10,,/media/demo/tulip-pink.svg,/media/demo/tulip-pink.svg|/media/demo/tulip-pink-2.svg,,on_sale
            BAD,BAD-1,1枝,坏图,,花束/郁金香,9,,1,,/media/../x.svg,,,on_sale
            """
        let path = app.directory.appendingPathComponent("media.csv").path
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        let report = try app.shop.catalogImporter.importFile(at: path, options: .init(skipInvalid: true))
        #expect(report.issues.map(\.column) == ["cover_url"])
        let listed = try #require(try app.get("/api/v1/products").decode(PageResponse<ProductSummaryResponse>.self).items.first)
        #expect(listed.coverURL == "/media/demo/tulip-pink.svg")
        let detail = try app.get("/api/v1/products/\(listed.id)").decode(ProductDetailResponse.self)
        #expect(detail.own.images == ["/media/demo/tulip-pink.svg", "/media/demo/tulip-pink-2.svg"])
    }
}
