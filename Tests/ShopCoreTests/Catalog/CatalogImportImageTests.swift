import Crypto
import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

/// A catalogue folder with image files beside the CSV, and a media folder the shop serves.
private final class ImageFolders {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("floral-import-images-\(UUID().uuidString)")
    var catalog: URL { root.appendingPathComponent("catalog") }
    var media: URL { root.appendingPathComponent("media") }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("rest of a PNG".utf8)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("rest of a JPEG".utf8)
    static let webp: [UInt8] = Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array("WEBPVP8 ".utf8)
    static let gif = Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00]
    static let svg = Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>".utf8)
    /// What the audit published: a page with a secret that mentions `<svg` somewhere.
    static let page = Array("<html><body>API_KEY=sk-live-123 <svg></svg></body></html>".utf8)

    init() throws {
        try FileManager.default.createDirectory(at: catalog.appendingPathComponent("img"), withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ bytes: [UInt8], _ name: String) throws {
        try Data(bytes).write(to: catalog.appendingPathComponent(name))
    }

    /// A folder beside the catalogue's (not inside it), with `name` holding `bytes`.
    func outside(_ bytes: [UInt8], _ name: String) throws -> URL {
        let folder = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        return folder
    }

    /// A symbolic link at `name` (in the catalogue's folder) to `target`.
    func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: catalog.appendingPathComponent(name).path, withDestinationPath: target)
    }

    /// Writes the CSV beside the images and answers its path.
    func csv(_ lines: [CatalogLine]) throws -> String {
        let url = catalog.appendingPathComponent("catalog.csv")
        try Data(CatalogLine.file(lines).utf8).write(to: url)
        return url.path
    }

    func mediaFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: media.path)) ?? []).sorted()
    }

    static func mediaName(_ bytes: [UInt8], _ type: String) -> String {
        Digest.sha256(bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "." + type
    }
}

@Suite("Catalogue import: local image files")
struct CatalogImportImageTests {
    @Test func localImagesAreCopiedUnderTheirContentHashAndStoredAsMediaURLs() throws {
        let folders = try ImageFolders()
        let fixture = try TestShop { $0.media.path = folders.media.path }
        try folders.write(ImageFolders.png, "img/rose.png")
        try folders.write(ImageFolders.jpeg, "rose-side.jpeg")
        try folders.write(ImageFolders.gif, "img/card.gif")
        try folders.write(ImageFolders.webp, "img/top.webp")
        let absolute = folders.catalog.appendingPathComponent("img/top.webp").path
        let path = try folders.csv([
            CatalogLine(product: "ROSE", sku: "ROSE-1", cover: "img/rose.png",
                        images: "rose-side.jpeg|./img/card.gif|\(absolute)|https://img.example.com/r.jpg"),
        ])
        let outcome = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
        #expect(outcome.summary.products.created == 1)

        let png = ImageFolders.mediaName(ImageFolders.png, "png"), jpeg = ImageFolders.mediaName(ImageFolders.jpeg, "jpg")
        let gif = ImageFolders.mediaName(ImageFolders.gif, "gif"), webp = ImageFolders.mediaName(ImageFolders.webp, "webp")
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "ROSE"))
        #expect(rose.summary.coverURL == "/media/\(png)")
        #expect(rose.images == ["/media/\(jpeg)", "/media/\(gif)", "/media/\(webp)", "https://img.example.com/r.jpg"])
        #expect(folders.mediaFiles() == [png, jpeg, gif, webp].sorted())
        let copied = try Data(contentsOf: folders.media.appendingPathComponent(png))
        #expect(Array(copied) == ImageFolders.png)

        // The same file again: the same URLs, nothing changed.
        let again = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
        #expect(again.summary.products.unchanged == 1)
    }

    @Test func aMissingOrNonImageFileIsARowErrorAndNothingIsWrittenOrCopied() throws {
        let folders = try ImageFolders()
        let fixture = try TestShop { $0.media.path = folders.media.path }
        try folders.write(ImageFolders.png, "img/rose.png")
        try folders.write(Array("just text, not a picture".utf8), "img/notes.png")
        let path = try folders.csv([
            CatalogLine(product: "ROSE", sku: "ROSE-1", cover: "img/rose.png"),
            CatalogLine(product: "LILY", sku: "LILY-1", cover: "img/missing.jpg"),
            CatalogLine(product: "TULIP", sku: "TULIP-1", images: "img/notes.png"),
            CatalogLine(product: "IRIS", sku: "IRIS-1", cover: "ftp://host/a.png"),
        ])
        do {
            _ = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
            Issue.record("an import with a missing image succeeded")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.line) == [3, 4, 5])
            #expect(issues.map(\.column) == ["cover_url", "image_urls", "cover_url"])
            #expect(issues[0].reason.contains("img/missing.jpg does not exist"))
            #expect(issues[1].reason.contains("is not a PNG, JPEG, WebP or GIF image"))
            #expect(issues[2].reason.contains("is not an http(s) URL, a /media/ path or a local image file"))
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
        #expect(folders.mediaFiles().isEmpty)
    }

    /// An HTML page with a secret (it starts with `<` and contains `<svg`) and a real SVG are both
    /// refused: only the magic numbers of JPEG, PNG, WebP and GIF make a file an image.
    @Test func textFilesAreRefusedHoweverMuchTheyLookLikeSVG() throws {
        let folders = try ImageFolders()
        let fixture = try TestShop { $0.media.path = folders.media.path }
        try folders.write(ImageFolders.page, "img/config.html")
        try folders.write(ImageFolders.svg, "img/card.svg")
        let path = try folders.csv([
            CatalogLine(product: "ROSE", sku: "ROSE-1", cover: "img/config.html"),
            CatalogLine(product: "LILY", sku: "LILY-1", images: "img/card.svg"),
        ])
        do {
            _ = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
            Issue.record("a text file was imported as an image")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.line) == [2, 3])
            #expect(issues.allSatisfy { $0.reason.contains("is not a PNG, JPEG, WebP or GIF image") }, "\(issues)")
        }
        #expect(folders.mediaFiles().isEmpty)
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    /// A symbolic link is refused even to an image beside it; a file outside the catalogue's folder
    /// (by an absolute path, `..` or a linked folder) is refused until `--allow-paths` names its folder.
    @Test func linksAndFilesOutsideTheCataloguesFolderAreRefusedUnlessTheFolderIsAllowed() throws {
        let folders = try ImageFolders()
        let fixture = try TestShop { $0.media.path = folders.media.path }
        try folders.write(ImageFolders.png, "img/rose.png")
        try folders.link("img/alias.png", to: folders.catalog.appendingPathComponent("img/rose.png").path)
        let elsewhere = try folders.outside(ImageFolders.jpeg, "lily.jpg")
        try folders.link("linked", to: elsewhere.path)
        let lines = [
            CatalogLine(product: "ROSE", sku: "ROSE-1", cover: "img/alias.png"),
            CatalogLine(product: "LILY", sku: "LILY-1", cover: elsewhere.appendingPathComponent("lily.jpg").path),
            CatalogLine(product: "IRIS", sku: "IRIS-1", cover: "../elsewhere/lily.jpg"),
            CatalogLine(product: "TULIP", sku: "TULIP-1", cover: "linked/lily.jpg"),
        ]
        let path = try folders.csv(lines)
        do {
            _ = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
            Issue.record("a link or a file outside the folder was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.line) == [2, 3, 4, 5])
            #expect(issues.first?.reason.contains("img/alias.png is a symbolic link") == true, "\(issues)")
            #expect(issues.dropFirst().allSatisfy { $0.reason.contains("is outside the catalogue file's folder") }, "\(issues)")
        }
        #expect(folders.mediaFiles().isEmpty)

        let allowed = try folders.csv(Array(lines.dropFirst()))
        let outcome = try fixture.shop.catalogImporter.importFile(at: allowed, options: .init(allowedImageFolders: [elsewhere.path]))
        #expect(outcome.summary.products.created == 3)
        #expect(folders.mediaFiles() == [ImageFolders.mediaName(ImageFolders.jpeg, "jpg")])
    }

    @Test func anImageOverTheSizeLimitIsARowError() throws {
        let folders = try ImageFolders()
        let fixture = try TestShop { $0.media.path = folders.media.path }
        try folders.write(ImageFolders.png + [UInt8](repeating: 0, count: LocalImages.maxBytes), "big.png")
        let path = try folders.csv([CatalogLine(product: "ROSE", sku: "ROSE-1", cover: "big.png")])
        do {
            _ = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
            Issue.record("an oversized image was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.count == 1)
            #expect(issues.first?.reason.contains("over the limit of \(LocalImages.maxBytes) bytes") == true)
        }
        #expect(folders.mediaFiles().isEmpty)
    }

    @Test func aDryRunChecksImagesButCopiesNothing() throws {
        let folders = try ImageFolders()
        let fixture = try TestShop { $0.media.path = folders.media.path }
        try folders.write(ImageFolders.png, "rose.png")
        let path = try folders.csv([CatalogLine(product: "ROSE", sku: "ROSE-1", cover: "rose.png")])
        let outcome = try fixture.shop.catalogImporter.importFile(at: path, options: .init(dryRun: true))
        #expect(outcome.summary.products.created == 1)
        #expect(folders.mediaFiles().isEmpty)
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    @Test func imageTypesAreKnownByTheirFirstBytesNotTheirNames() {
        #expect(LocalImages.imageType(of: ImageFolders.png) == "png")
        #expect(LocalImages.imageType(of: ImageFolders.jpeg) == "jpg")
        #expect(LocalImages.imageType(of: Array("GIF89a....".utf8)) == "gif")
        #expect(LocalImages.imageType(of: ImageFolders.webp) == "webp")
        #expect(LocalImages.imageType(of: ImageFolders.gif) == "gif")
        #expect(LocalImages.imageType(of: ImageFolders.svg) == nil)
        #expect(LocalImages.imageType(of: Array("  <svg viewBox=\"0 0 1 1\"/>".utf8)) == nil)
        #expect(LocalImages.imageType(of: ImageFolders.page) == nil)
        #expect(LocalImages.imageType(of: Array("<html><body>not an image</body></html>".utf8)) == nil)
        #expect(LocalImages.imageType(of: Array("RIFF....WAVE".utf8)) == nil)
        #expect(LocalImages.imageType(of: []) == nil)
    }
}
