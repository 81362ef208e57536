import CVips
import ShopCore
import Synchronization

/// `ImageProcessor` over libvips: decodes JPEG, PNG and WebP (nothing else reaches libvips' other
/// loaders), checks the size from the header before any pixel is decoded, shrinks while loading
/// (a JPEG is decoded at 1/2, 1/4 or 1/8 when that is enough), turns the picture upright, converts
/// to sRGB (CMYK JPEGs included) and writes JPEG and WebP with no metadata at all (no EXIF, no GPS,
/// no XMP, no ICC profile). libvips runs with one thread per operation and no operation cache, so
/// a picture's memory is about one strip of it and is freed with it.
public struct VipsImageProcessor: ImageProcessor {
    /// JPEG and WebP quality (1...100).
    public let quality: Int

    public init(quality: Int = 80) throws {
        self.quality = quality
        try Self.start()
    }

    private static let started: Bool = floral_vips_init() == 0

    /// Starts libvips once per process.
    static func start() throws {
        guard started else { throw VipsError(message: "libvips did not start") }
    }

    /// The three formats uploads may be, by their first bytes.
    enum Format: String {
        case jpeg, png, webp

        init?(_ bytes: [UInt8]) {
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
                self = .jpeg
            } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                self = .png
            } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
                self = .webp
            } else {
                return nil
            }
        }

        /// libvips' loaders for this format (libvips picks one by sniffing; it must be one of these).
        var loaders: Set<String> {
            switch self {
            case .jpeg: ["VipsForeignLoadJpegBuffer"]
            case .png: ["VipsForeignLoadPngBuffer", "VipsForeignLoadSpngBuffer"]
            case .webp: ["VipsForeignLoadWebpBuffer"]
            }
        }
    }

    /// Width and height from the header, without decoding pixels; nil when `bytes` is not a JPEG,
    /// PNG or WebP libvips can open. A PNG whose header states sides libvips refuses to open
    /// (beyond 10,000,000 px, as a 1 × 100,000,000 bomb) answers the sides it states, so the
    /// caller can refuse it as too large rather than as damaged.
    public func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard let format = Format(bytes) else { return nil }
        let opened = bytes.withUnsafeBytes { buffer -> (Int, Int)? in
            guard let base = buffer.baseAddress,
                  let loader = floral_vips_loader(base, buffer.count).map({ String(cString: $0) }),
                  format.loaders.contains(loader) else { return nil }
            guard let image = floral_vips_open(base, buffer.count) else {
                floral_vips_error_clear()
                return nil
            }
            defer { floral_vips_release(image) }
            return (Int(vips_image_get_width(image)), Int(vips_image_get_height(image)))
        }
        if let opened { return opened }
        guard format == .png, let stated = Self.pngHeaderSize(bytes), stated.width > Self.largestSide || stated.height > Self.largestSide
        else { return nil }
        return stated
    }

    /// The longest side libvips opens (`VIPS_MAX_COORD`).
    static let largestSide = 10_000_000

    /// The sides a PNG's first chunk (IHDR) states, read from its bytes.
    static func pngHeaderSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func bigEndian(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (bigEndian(16), bigEndian(20))
    }

    public func renditions(of bytes: [UInt8], maxPixels: Int, sizes: [Int]) throws -> [ImageRendition] {
        guard let size = dimensions(of: bytes) else { throw MediaError.notAnImage }
        let (width, height) = size
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= maxPixels,
              width <= maxPixels, height <= maxPixels else {
            throw MediaError.tooManyPixels(width: width, height: height, limit: maxPixels)
        }
        // Decoded once, at the largest size (a JPEG shrinks while loading); each smaller size is
        // made from that one in memory, which costs a fraction of a second decode.
        let largestFirst = sizes.sorted(by: >)
        guard let largest = largestFirst.first else { return [] }
        let decoded = try thumbnail(bytes, size: largest)
        defer { floral_vips_release(decoded) }
        var made: [Int: ImageRendition] = [:]
        for size in largestFirst {
            let image = try size == largest ? retained(decoded) : shrunk(decoded, to: size)
            defer { floral_vips_release(image) }
            made[size] = ImageRendition(
                size: size, width: Int(vips_image_get_width(image)), height: Int(vips_image_get_height(image)),
                jpeg: try encode { floral_vips_jpeg(image, Int32(quality), $0, $1) },
                webp: WebPChunks.strippingMetadata(try encode {
                    floral_vips_webp(image, Int32(webpQuality(size)), Int32(Self.webpEffort(size)), $0, $1)
                }))
        }
        return sizes.compactMap { made[$0] }
    }

    /// WebP quality for a size: 5 below `quality` for thumbnails (lists show twenty at a time: 22%
    /// smaller, hardly visible at a card's size; issue 29's home page budget is 300 KB).
    func webpQuality(_ size: Int) -> Int {
        size > MediaLibrary.thumbnailSize ? quality : max(quality - 5, 1)
    }

    /// libwebp's effort for a size: 2 above 480 px (a 1280 px picture in a third of the time of the
    /// default 4, about 2% larger), the default 4 for thumbnails (the lists send those; they are cheap).
    static func webpEffort(_ size: Int) -> Int {
        size > MediaLibrary.thumbnailSize ? 2 : 4
    }

    private func retained(_ image: UnsafeMutablePointer<VipsImage>) -> UnsafeMutablePointer<VipsImage> {
        floral_vips_retain(image)
        return image
    }

    /// `image` (in memory, without metadata) shrunk to fit `size`, in memory too.
    private func shrunk(_ image: UnsafeMutablePointer<VipsImage>, to size: Int) throws -> UnsafeMutablePointer<VipsImage> {
        var out: UnsafeMutablePointer<VipsImage>?
        guard floral_vips_thumbnail_image(image, Int32(size), &out) == 0, let out else { throw failure(MediaError.notAnImage) }
        defer { floral_vips_release(out) }
        guard let memory = floral_vips_bare_copy(out) else { throw failure(MediaError.notAnImage) }
        return memory
    }

    public func png(fromSVG bytes: [UInt8], size: Int) throws -> [UInt8] {
        guard bytes.first == UInt8(ascii: "<") else { throw MediaError.notAnImage }
        return try encode { buffer, length in
            bytes.withUnsafeBytes { floral_vips_svg_to_png($0.baseAddress, $0.count, Int32(size), buffer, length) }
        }
    }

    /// Decoded, shrunk to fit `size`, upright, sRGB, no alpha (flattened onto white).
    private func thumbnail(_ bytes: [UInt8], size: Int) throws -> UnsafeMutablePointer<VipsImage> {
        var shrunk: UnsafeMutablePointer<VipsImage>?
        let status = bytes.withUnsafeBytes { floral_vips_thumbnail($0.baseAddress, $0.count, Int32(size), &shrunk) }
        guard status == 0, var image = shrunk else { throw failure(MediaError.notAnImage) }
        if floral_vips_interpretation(image) != VIPS_INTERPRETATION_sRGB {
            var converted: UnsafeMutablePointer<VipsImage>?
            guard floral_vips_srgb(image, &converted) == 0, let converted else {
                floral_vips_release(image)
                throw failure(MediaError.notAnImage)
            }
            floral_vips_release(image)
            image = converted
        }
        if vips_image_hasalpha(image) != 0 {
            var flat: UnsafeMutablePointer<VipsImage>?
            guard floral_vips_flatten_white(image, &flat) == 0, let flat else {
                floral_vips_release(image)
                throw failure(MediaError.notAnImage)
            }
            floral_vips_release(image)
            image = flat
        }
        // Into memory without metadata: the pipeline reads its source once, top to bottom, and is
        // encoded twice (JPEG, WebP). Pixels are decoded here, so a truncated or damaged file fails here.
        guard let memory = floral_vips_bare_copy(image) else {
            floral_vips_release(image)
            throw failure(MediaError.notAnImage)
        }
        floral_vips_release(image)
        return memory
    }

    /// The bytes a libvips save call wrote into a buffer it allocated.
    private func encode(_ save: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32) throws -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard save(&buffer, &length) == 0, let buffer else { throw failure(MediaError.notAnImage) }
        defer { floral_vips_free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// `error`, after clearing what libvips recorded (its error buffer is shared by every thread).
    private func failure(_ error: MediaError) -> MediaError {
        floral_vips_error_clear()
        return error
    }
}

/// libvips could not start.
public struct VipsError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
