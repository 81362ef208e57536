import CVips

/// Pictures drawn by libvips itself, so tests need no binary fixtures: plain colours of any size in
/// any of the upload formats, a CMYK JPEG, an animated WebP, and a JPEG carrying EXIF.
public enum PictureSynthesizer {
    public enum Format: Sendable {
        case jpeg, png, webp
    }

    /// A `width` × `height` picture of one colour (`rgb`), encoded as `format`.
    public static func picture(width: Int, height: Int, format: Format, rgb: (Double, Double, Double) = (200, 40, 90)) throws -> [UInt8] {
        try VipsImageProcessor.start()
        let image = try drawn(width: width, height: height, bands: 3, values: [rgb.0, rgb.1, rgb.2])
        defer { floral_vips_release(image) }
        return try encode { buffer, length in
            switch format {
            case .jpeg: floral_vips_jpeg(image, 90, buffer, length)
            case .png: floral_vips_png(image, buffer, length)
            case .webp: floral_vips_webp(image, 90, 4, buffer, length)
            }
        }
    }

    /// A JPEG whose four channels are CMYK (as print shops send them).
    public static func cmykJPEG(width: Int, height: Int) throws -> [UInt8] {
        try VipsImageProcessor.start()
        let image = try drawn(width: width, height: height, bands: 4, values: [10, 200, 30, 5])
        defer { floral_vips_release(image) }
        return try encode { floral_vips_jpeg_cmyk(image, $0, $1) }
    }

    /// A WebP animation of `frames` frames, each `width` × `height`.
    public static func animatedWebP(width: Int, height: Int, frames: Int) throws -> [UInt8] {
        try VipsImageProcessor.start()
        let image = try drawn(width: width, height: height * frames, bands: 3, values: [30, 160, 60])
        defer { floral_vips_release(image) }
        return try encode { floral_vips_webp_animated(image, Int32(height), $0, $1) }
    }

    /// `jpeg` with an EXIF block (APP1) naming the camera maker `make`, spliced after its first marker,
    /// as a phone writes one (with its location) into every photo.
    public static func addingEXIF(to jpeg: [UInt8], make: String) -> [UInt8] {
        let text = Array(make.utf8) + [0]
        // A little-endian TIFF header, one IFD with one entry (0x010F Make, ASCII), the text after it.
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x0F, 0x01, 0x02, 0x00]
        tiff += littleEndian32(text.count) + littleEndian32(26) + littleEndian32(0) + text
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg.prefix(2)) + segment + jpeg.dropFirst(2)
    }

    private static func littleEndian32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }

    private static func drawn(width: Int, height: Int, bands: Int, values: [Double]) throws -> UnsafeMutablePointer<VipsImage> {
        var black: UnsafeMutablePointer<VipsImage>?
        guard floral_vips_black(Int32(width), Int32(height), Int32(bands), &black) == 0, let black else {
            throw VipsError(message: "cannot draw a \(width) × \(height) picture")
        }
        defer { floral_vips_release(black) }
        var coloured: UnsafeMutablePointer<VipsImage>?
        let ones = [Double](repeating: 1, count: bands)
        guard floral_vips_linear(black, ones, values, Int32(bands), &coloured) == 0, let coloured else {
            throw VipsError(message: "cannot colour a picture")
        }
        return coloured
    }

    private static func encode(_ save: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32) throws -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard save(&buffer, &length) == 0, let buffer else {
            floral_vips_error_clear()
            throw VipsError(message: "cannot encode a picture")
        }
        defer { floral_vips_free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: length))
    }
}
