/// Decodes, checks and re-encodes pictures (libvips behind the `Images` target). ShopCore holds only
/// this face of it, handed in by the composition root, so no C library reaches the shop's rules.
public protocol ImageProcessor: Sendable {
    /// Width and height from the header (no pixel decoded); nil when `bytes` is not a JPEG, PNG or
    /// WebP that can be opened.
    func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)?

    /// `bytes` (a JPEG, PNG or WebP, nothing else) decoded once its header shows at most
    /// `maxPixels` pixels, then one rendition per size in `sizes` (each the longest side, never
    /// enlarged), turned upright, in sRGB and without any metadata. An animation gives its first
    /// frame. Throws `MediaError.notAnImage` or `.tooManyPixels`.
    func renditions(of bytes: [UInt8], maxPixels: Int, sizes: [Int]) throws -> [ImageRendition]

    /// An SVG drawn as a PNG whose longest side is at most `size` (share pages: messengers do not
    /// show SVG). Throws `MediaError.notAnImage`.
    func png(fromSVG bytes: [UInt8], size: Int) throws -> [UInt8]
}

/// One size of a picture, encoded twice: JPEG for every client, WebP for those that accept it.
public struct ImageRendition: Sendable {
    /// The longest side asked for (480, 1280).
    public let size: Int
    public let width: Int
    public let height: Int
    public let jpeg: [UInt8]
    public let webp: [UInt8]

    public init(size: Int, width: Int, height: Int, jpeg: [UInt8], webp: [UInt8]) {
        self.size = size
        self.width = width
        self.height = height
        self.jpeg = jpeg
        self.webp = webp
    }
}
