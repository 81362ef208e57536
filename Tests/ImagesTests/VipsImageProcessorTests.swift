import Foundation
import Images
import ShopCore
import Testing

/// A PNG header claiming `width` × `height` pixels, with a few bytes of (unreadable) data after it:
/// a decompression bomb stops at its header.
func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
    func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * UInt32($0))) & 0xFF) } }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }
    let header = bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        + chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]) + chunk("IEND", [])
}

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
    }
    return ~crc
}

extension Array where Element == UInt8 {
    /// Whether these bytes contain `text` anywhere.
    func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

@Suite("Pictures through libvips: limits, sizes, no metadata")
struct VipsImageProcessorTests {
    let processor: VipsImageProcessor
    static let sizes = [1_280, 480]

    init() throws {
        processor = try VipsImageProcessor()
    }

    @Test func aLargePhotoBecomesADisplaySizeAndAThumbnailInJPEGAndWebP() throws {
        let photo = try PictureSynthesizer.picture(width: 4_000, height: 3_000, format: .jpeg)
        let renditions = try processor.renditions(of: photo, maxPixels: 40_000_000, sizes: Self.sizes)
        #expect(renditions.map(\.size) == [1_280, 480])
        #expect(renditions.map(\.width) == [1_280, 480])
        #expect(renditions.map(\.height) == [960, 360])
        for rendition in renditions {
            #expect(rendition.jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
            #expect(rendition.webp.starts(with: Array("RIFF".utf8)) && rendition.webp[8..<12].elementsEqual("WEBP".utf8))
            #expect(processor.dimensions(of: rendition.jpeg)! == (rendition.width, rendition.height))
            #expect(processor.dimensions(of: rendition.webp)! == (rendition.width, rendition.height))
        }
        #expect(renditions[1].jpeg.count < 60_000, "a thumbnail is small: \(renditions[1].jpeg.count) bytes")
    }

    @Test func aSmallPictureIsNeverEnlarged() throws {
        let small = try PictureSynthesizer.picture(width: 300, height: 200, format: .png)
        let renditions = try processor.renditions(of: small, maxPixels: 40_000_000, sizes: Self.sizes)
        #expect(renditions.map(\.width) == [300, 300])
        #expect(renditions.map(\.height) == [200, 200])
    }

    @Test func exifAndTheCameraItNamesAreStrippedFromEveryRendition() throws {
        let plain = try PictureSynthesizer.picture(width: 1_600, height: 1_200, format: .jpeg)
        let photo = PictureSynthesizer.addingEXIF(to: plain, make: "PhoneMakerGPS")
        #expect(photo.contains("Exif") && photo.contains("PhoneMakerGPS"))
        let renditions = try processor.renditions(of: photo, maxPixels: 40_000_000, sizes: Self.sizes)
        for rendition in renditions {
            for bytes in [rendition.jpeg, rendition.webp] {
                #expect(!bytes.contains("Exif"))
                #expect(!bytes.contains("PhoneMakerGPS"))
                #expect(!bytes.contains("EXIF"))
            }
        }
    }

    @Test func pixelsBeyondTheLimitAreRefusedFromTheHeader() throws {
        let picture = try PictureSynthesizer.picture(width: 200, height: 100, format: .webp)
        #expect(throws: MediaError.tooManyPixels(width: 200, height: 100, limit: 19_999)) {
            try processor.renditions(of: picture, maxPixels: 19_999, sizes: Self.sizes)
        }
        #expect(try processor.renditions(of: picture, maxPixels: 20_000, sizes: Self.sizes).count == 2)
    }

    @Test func aPNGBombOfOneByAHundredMillionPixelsIsRefusedAsTooLargeWithoutDecoding() throws {
        // libvips itself will not open sides beyond 10,000,000: the header's own figures decide.
        for (width, height) in [(1, 100_000_000), (100_000_000, 1), (20_000, 20_000)] {
            let bomb = pngHeader(width: UInt32(width), height: UInt32(height))
            let started = Date()
            #expect(throws: MediaError.tooManyPixels(width: width, height: height, limit: 40_000_000)) {
                try processor.renditions(of: bomb, maxPixels: 40_000_000, sizes: Self.sizes)
            }
            #expect(Date().timeIntervalSince(started) < 1)
        }
    }

    @Test func bytesThatAreNoUploadFormatAreNotAnImage() throws {
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 40)
        let svg = Array("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>".utf8)
        let text = Array("just some text named rose.jpg".utf8)
        for bytes in [gif, svg, text, [], [0xFF, 0xD8, 0xFF]] {
            #expect(throws: MediaError.notAnImage) { try processor.renditions(of: bytes, maxPixels: 40_000_000, sizes: Self.sizes) }
        }
    }

    @Test func aTruncatedJPEGIsNotAnImage() throws {
        let photo = try PictureSynthesizer.picture(width: 800, height: 600, format: .jpeg)
        let truncated = Array(photo.prefix(photo.count / 2))
        #expect(throws: MediaError.notAnImage) { try processor.renditions(of: truncated, maxPixels: 40_000_000, sizes: Self.sizes) }
    }

    @Test func aCMYKJPEGComesOutInSRGB() throws {
        let cmyk = try PictureSynthesizer.cmykJPEG(width: 640, height: 480)
        let renditions = try processor.renditions(of: cmyk, maxPixels: 40_000_000, sizes: Self.sizes)
        #expect(renditions.map(\.width) == [640, 480])
        // Three channels (YCbCr in the file), not CMYK's four: the JPEG's SOF0 segment says how many.
        let jpeg = renditions[0].jpeg
        let sof = try #require((0..<(jpeg.count - 10)).first { jpeg[$0] == 0xFF && (jpeg[$0 + 1] == 0xC0 || jpeg[$0 + 1] == 0xC2) })
        #expect(jpeg[sof + 9] == 3)
    }

    @Test func anAnimatedWebPGivesItsFirstFrame() throws {
        let animation = try PictureSynthesizer.animatedWebP(width: 60, height: 40, frames: 3)
        let renditions = try processor.renditions(of: animation, maxPixels: 40_000_000, sizes: Self.sizes)
        #expect(renditions.map(\.width) == [60, 60])
        #expect(renditions.map(\.height) == [40, 40])
    }

    @Test func anSVGIsDrawnAsAPNG() throws {
        let svg = Array("<svg xmlns='http://www.w3.org/2000/svg' width='100' height='50'><rect width='100' height='50' fill='red'/></svg>".utf8)
        let png = try processor.png(fromSVG: svg, size: 1_200)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(processor.dimensions(of: png)! == (1_200, 600))
        #expect(throws: MediaError.notAnImage) { try processor.png(fromSVG: Array("not svg".utf8), size: 100) }
    }
}
