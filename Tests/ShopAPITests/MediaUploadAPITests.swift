import Foundation
import HTTP
import Images
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

private extension TestAPI {
    func upload(_ body: [UInt8], type: String? = "image/jpeg", token: String?) throws -> TestResponse {
        var headers = Headers()
        if let type { headers.set("Content-Type", type) }
        if let token { headers.set("Authorization", "Bearer \(token)") }
        return try send(Request(method: "POST", path: "/api/v1/media", headers: headers, body: body, remoteAddress: "10.0.0.1"))
    }

    /// The files in `media.path` (none when the folder was never made).
    var mediaFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: testShop.config.media.path)) ?? []).sorted()
    }
}

private extension Array where Element == UInt8 {
    func containsText(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

@Suite("POST /media: buyers' pictures, re-encoded")
struct MediaUploadAPITests {
    @Test func staffUploadWithTheirOwnTokenAndOnlyTokensOfOneKindOrTheOtherWork() throws {
        let app = try TestAPI { $0.media.maxUploadsPerMinute = 1 }
        let florist = try app.staffToken(.florist)
        let buyer = try app.token(for: "13800138000")
        let photo = try PictureSynthesizer.picture(width: 800, height: 600, format: .jpeg)
        let byStaff = try app.upload(photo, token: florist)
        #expect(byStaff.status == 201, "\(byStaff.text)")
        #expect((byStaff.json["thumbnail_url"] as? String)?.hasSuffix("-480.jpg") == true)
        // each uploader has an allowance of their own: the florist's upload did not use the buyer's
        #expect(try app.upload(photo, token: buyer).status == 201)
        #expect(try app.upload(photo, token: florist).status == 429)
        let stranger = try app.upload(photo, token: "no-such-token")
        #expect(stranger.status == 401 && stranger.errorCode == "unauthorized")
        #expect(try app.upload(photo, token: nil).status == 401)
    }

    @Test func aPhotoWithEXIFComesBackAsSmallPicturesWithout() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        let photo = PictureSynthesizer.addingEXIF(to: try PictureSynthesizer.picture(width: 4_000, height: 3_000, format: .jpeg),
                                                  make: "PhoneMakerGPS")
        let response = try app.upload(photo, token: token)
        #expect(response.status == 201, "\(response.text)")
        let uploaded = try response.decode(UploadController.UploadResponse.self)
        let url = uploaded.url
        let thumbnail = uploaded.thumbnailURL
        #expect(url.hasPrefix("/media/") && url.hasSuffix("-1280.jpg"))
        #expect(thumbnail.hasPrefix("/media/") && thumbnail.hasSuffix("-480.jpg"))
        #expect(app.mediaFiles.count == 4, "\(app.mediaFiles)")

        let jpeg = try app.send("GET", thumbnail)
        #expect(jpeg.status == 200)
        #expect(jpeg.headers["Content-Type"] == "image/jpeg")
        #expect(jpeg.headers["Vary"] == "Accept")
        #expect(jpeg.body.count < 60_000)
        #expect(!jpeg.body.containsText("Exif") && !jpeg.body.containsText("PhoneMakerGPS"))
        let dimensions = try #require(try VipsImageProcessor().dimensions(of: jpeg.body))
        #expect(dimensions == (480, 360))

        let webp = try app.send("GET", thumbnail, headers: [("Accept", "image/avif,image/webp,*/*")])
        #expect(webp.headers["Content-Type"] == "image/webp")
        #expect(!webp.body.containsText("Exif") && !webp.body.containsText("PhoneMakerGPS"))
        let display = try app.send("GET", url)
        #expect(try VipsImageProcessor().dimensions(of: display.body).map { [$0.width, $0.height] } == [1_280, 960])
    }

    @Test func theSamePictureTwiceHasTheSameNames() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        let png = try PictureSynthesizer.picture(width: 500, height: 500, format: .png)
        let first = try app.upload(png, type: "image/png", token: token)
        let second = try app.upload(png, type: "image/png", token: token)
        #expect(first.status == 201 && second.status == 201)
        #expect(try first.decode(UploadController.UploadResponse.self).url == second.decode(UploadController.UploadResponse.self).url)
        #expect(app.mediaFiles.count == 4)
    }

    @Test func bytesThatAreNoPictureAre415AndNothingIsWritten() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        let jpeg = try PictureSynthesizer.picture(width: 300, height: 200, format: .jpeg)
        let cases: [([UInt8], String?)] = [
            (Array("<?php echo 'rose.jpg'; ?>".utf8), "image/jpeg"),
            (Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8), "image/png"),
            (Array(jpeg.prefix(jpeg.count / 2)), "image/jpeg"),
            (jpeg, "text/plain"),
            (jpeg, "image/svg+xml"),
            (jpeg, nil),
            (ImagesTestBytes.gif, "image/webp"),
        ]
        for (body, type) in cases {
            let response = try app.upload(body, type: type, token: token)
            #expect(response.status == 415, "\(type ?? "no type"): \(response.text)")
            #expect(response.errorCode == "unsupported_media_type")
        }
        #expect(app.mediaFiles.isEmpty)
    }

    @Test func anEmptyBodyIs400AndTooLargeIs413() throws {
        let app = try TestAPI { $0.media.maxUploadBytes = 4_096; $0.media.maxPixels = 10_000 }
        let token = try app.token(for: "13800138000")
        let empty = try app.upload([], token: token)
        #expect(empty.status == 400)
        #expect(empty.errorCode == "invalid_request")
        let large = try app.upload([UInt8](repeating: 0xFF, count: 4_097), token: token)
        #expect(large.status == 413)
        #expect(large.errorCode == "payload_too_large")
        let wide = try app.upload(try PictureSynthesizer.picture(width: 101, height: 100, format: .png), type: "image/png", token: token)
        #expect(wide.status == 413, "\(wide.text)")
        #expect(wide.errorCode == "payload_too_large")
        #expect(app.mediaFiles.isEmpty)
    }

    @Test func aPNGBombIsRefusedWithNothingWritten() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        let response = try app.upload(ImagesTestBytes.pngBomb, type: "image/png", token: token)
        #expect(response.status == 413, "\(response.text)")
        #expect(response.errorCode == "payload_too_large")
        #expect(app.mediaFiles.isEmpty)
    }

    @Test func aCMYKJPEGAndAnAnimatedWebPAreStoredAsStillSRGBPictures() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        let cmyk = try app.upload(try PictureSynthesizer.cmykJPEG(width: 640, height: 480), type: "image/jpeg", token: token)
        #expect(cmyk.status == 201, "\(cmyk.text)")
        let jpeg = try app.send("GET", try #require(cmyk.json["thumbnail_url"] as? String)).body
        // Three channels in the frame header (SOF0/SOF2), not CMYK's four.
        let sof = try #require((0..<(jpeg.count - 10)).first { jpeg[$0] == 0xFF && (jpeg[$0 + 1] == 0xC0 || jpeg[$0 + 1] == 0xC2) })
        #expect(jpeg[sof + 9] == 3)

        let animated = try app.upload(try PictureSynthesizer.animatedWebP(width: 60, height: 40, frames: 3), type: "image/webp", token: token)
        #expect(animated.status == 201, "\(animated.text)")
        let webp = try app.send("GET", try #require(animated.json["url"] as? String), headers: [("Accept", "image/webp")]).body
        #expect(webp.starts(with: Array("RIFF".utf8)) && !webp.containsText("ANIM") && !webp.containsText("ANMF"))
        #expect(try VipsImageProcessor().dimensions(of: webp).map { [$0.width, $0.height] } == [60, 40])
        #expect(app.mediaFiles.count == 8)
    }

    @Test func onlySignedInBuyersMayUpload() throws {
        let app = try TestAPI()
        let response = try app.upload(try PictureSynthesizer.picture(width: 10, height: 10, format: .jpeg), token: nil)
        #expect(response.status == 401)
    }

    @Test func uploadsPastThePerMinuteLimitAre429WithRetryAfter() throws {
        let app = try TestAPI { $0.media.maxUploadsPerMinute = 2 }
        let token = try app.token(for: "13800138000")
        let webp = try PictureSynthesizer.picture(width: 20, height: 20, format: .webp)
        #expect(try app.upload(webp, type: "image/webp", token: token).status == 201)
        #expect(try app.upload(webp, type: "image/webp", token: token).status == 201)
        let limited = try app.upload(webp, type: "image/webp", token: token)
        #expect(limited.status == 429)
        #expect(limited.errorCode == "rate_limited")
        #expect(limited.headers["Retry-After"] != nil)
        let other = try app.token(for: "13800138001")
        #expect(try app.upload(webp, type: "image/webp", token: other).status == 201, "the limit is per user")
    }

    @Test func theUploadRouteRunsOnTheMediaBulkhead() throws {
        let app = try TestAPI()
        #expect(app.api.offloadTargets[.media] != nil)
        #expect(app.api.bodyLimits["POST /api/v1/media"] == 5 * 1_048_576)
    }

    @Test func aDemoSVGIsServedAsAPNGDrawnOnce() throws {
        let app = try TestAPI()
        let response = try app.send("GET", "/media/demo/rose-red.png")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers["Content-Type"] == "image/png")
        #expect(response.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(FileManager.default.fileExists(atPath: app.testShop.config.media.path + "/demo/rose-red.png"))
        #expect(try app.send("GET", "/media/demo/no-such-flower.png").status == 404)
    }
}

@Suite("Share pictures drawn when the demo shop is seeded")
struct DemoPreviewPictureTests {
    /// The repository's Examples/ (the demo shop `shop seed demo` carries).
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    @Test func theDemoCoversAreDrawnAsPNGFilesBeforeAnyRequest() throws {
        let app = try TestAPI()
        let covers = try DemoShopSeeder.coverPictures(in: Self.examples)
        #expect(covers.contains("/media/demo/rose-red.svg") && covers.contains("/media/demo/article-vase-glass.svg"))
        #expect(!covers.contains("/media/demo/rose-red-2.svg"), "a second picture is no cover")
        #expect(Set(covers).count == covers.count)

        let drawn = DemoPreviewPictures.draw(Array(covers.prefix(3)) + ["/media/demo/no-such-flower.svg"], with: app.shop.media)
        #expect(drawn.ready == 3 && drawn.failed == ["/media/demo/no-such-flower.svg"])
        let file = app.testShop.config.media.path + "/demo/" + covers[0].split(separator: "/").last!.dropLast(4) + ".png"
        let png = try #require(FileManager.default.contents(atPath: file).map { [UInt8]($0) })
        #expect(try VipsImageProcessor().dimensions(of: png).map { max($0.width, $0.height) } == 1_200)
        // The share page's og:image is that very file, served as it is.
        let served = try app.send("GET", String(covers[0].dropLast(4)) + ".png")
        #expect(served.headers["Content-Type"] == "image/png" && served.body == png)
    }
}

/// Small byte fixtures: a GIF header and a PNG header claiming 1 × 100,000,000 pixels.
enum ImagesTestBytes {
    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]

    static var pngBomb: [UInt8] {
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * UInt32($0))) & 0xFF) } }
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
            }
            return ~crc
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", bigEndian(1) + bigEndian(100_000_000) + [8, 0, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]) + chunk("IEND", [])
    }
}

@Suite("Catalogue import: local photos re-encoded like uploads")
struct CatalogImportRenditionTests {
    @Test func anImportedLargePhotoBecomesThumbnailsWithoutEXIFAndListsSendTheThumbnail() throws {
        let app = try TestAPI()
        let folder = app.directory.appendingPathComponent("catalog")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = PictureSynthesizer.addingEXIF(to: try PictureSynthesizer.picture(width: 4_000, height: 3_000, format: .jpeg),
                                                  make: "PhoneMakerGPS")
        try Data(photo).write(to: folder.appendingPathComponent("rose.jpg"))
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("notes.jpg"))
        let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status"
        let csv = folder.appendingPathComponent("catalog.csv")
        try Data((header + "\nROSE,ROSE-1,11枝,红玫瑰花束,,花束/玫瑰,129.00,,10,,rose.jpg,rose.jpg,,\n").utf8).write(to: csv)
        let outcome = try app.shop.catalogImporter.importFile(at: csv.path, options: .init())
        #expect(outcome.summary.products.created == 1)

        let list = try app.send("GET", "/api/v1/products")
        let item = try #require(try list.decode(PageResponse<ProductSummaryResponse>.self).items.first)
        let cover = item.coverURL
        let thumbnail = item.coverThumbnailURL
        #expect(cover.hasSuffix("-1280.jpg") && thumbnail == cover.replacingOccurrences(of: "-1280.jpg", with: "-480.jpg"))
        let small = try app.send("GET", thumbnail)
        #expect(small.status == 200)
        #expect(small.body.count < 60_000)
        #expect(!small.body.containsText("Exif") && !small.body.containsText("PhoneMakerGPS"))
        // The product page names each picture's thumbnail too, for the gallery's strip.
        let page = try app.send("GET", "/api/v1/products/\(item.id)").decode(ProductDetailResponse.self)
        #expect(page.own.images == [cover])
        #expect(page.own.imageThumbnailURLs == [thumbnail])

        try Data((header + "\nLILY,LILY-1,1枝,百合,,花束/百合,29.00,,10,,notes.jpg,,,\n").utf8).write(to: csv)
        #expect(throws: (any Error).self) { try app.shop.catalogImporter.importFile(at: csv.path, options: .init()) }
    }

    @Test func aSharePageOfAProductWithAnSVGCoverNamesAPNG() throws {
        let app = try TestAPI()
        let folder = app.directory.appendingPathComponent("catalog")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status"
        let csv = folder.appendingPathComponent("catalog.csv")
        try Data((header + "\nROSE,ROSE-1,11枝,红玫瑰花束,,花束/玫瑰,129.00,,10,,/media/demo/rose-red.svg,,,\n").utf8).write(to: csv)
        _ = try app.shop.catalogImporter.importFile(at: csv.path, options: .init())
        let list = try app.send("GET", "/api/v1/products")
        let id = try #require(try list.decode(PageResponse<ProductSummaryResponse>.self).items.first?.id)
        let page = try app.send("GET", "/share/products/\(id)", headers: [("Accept", "text/html")])
        #expect(page.status == 200)
        #expect(page.text.contains("/media/demo/rose-red.png"), "\(page.text.prefix(600))")
        #expect(!page.text.contains("rose-red.svg\""))
    }
}
