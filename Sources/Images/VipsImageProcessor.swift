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
    /// PNG or WebP libvips can open.
    public func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard let format = Format(bytes) else { return nil }
        return bytes.withUnsafeBytes { buffer -> (Int, Int)? in
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
    }

    public func renditions(of bytes: [UInt8], maxPixels: Int, sizes: [Int]) throws -> [ImageRendition] {
        guard let size = dimensions(of: bytes) else { throw MediaError.notAnImage }
        let (width, height) = size
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= maxPixels,
              width <= maxPixels, height <= maxPixels else {
            throw MediaError.tooManyPixels(width: width, height: height, limit: maxPixels)
        }
        return try sizes.map { size in
            let image = try thumbnail(bytes, size: size)
            defer { floral_vips_release(image) }
            return ImageRendition(size: size, width: Int(vips_image_get_width(image)), height: Int(vips_image_get_height(image)),
                                  jpeg: try encode { floral_vips_jpeg(image, Int32(quality), $0, $1) },
                                  webp: WebPChunks.strippingMetadata(try encode { floral_vips_webp(image, Int32(quality), $0, $1) }))
        }
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
