import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The pictures the shop makes itself: uploads (`POST /media`) and imported photos re-encoded into a
/// display size and a thumbnail, JPEG and WebP each, written into `media.path` under names made from
/// the original's SHA-256 (`<32 hex>-1280.jpg`, `<32 hex>-480.webp`), so a name never changes its
/// bytes; and the demo's SVG pictures drawn as PNGs for share pages.
public final class MediaLibrary: Sendable {
    /// The longest side of the display size and of the thumbnail.
    public static let displaySize = 1_280
    public static let thumbnailSize = 480
    /// The upload types accepted (`Content-Type`); the bytes must be one of them too.
    public static let acceptedTypes: Set<String> = ["image/jpeg", "image/png", "image/webp"]
    /// Hex digits of the SHA-256 in a name, as for imported files.
    static let hashDigits = 32

    public let folder: URL
    public let settings: Config.Media
    private let processor: (any ImageProcessor)?
    private let clock: Clock
    private let throttle: UploadThrottle

    /// Where a stored picture is served: the display size and the thumbnail (JPEG names; the WebP
    /// beside each is sent to clients that accept it).
    public struct StoredImage: Sendable, Equatable {
        public let url: String
        public let thumbnailURL: String
    }

    /// `processor` nil: uploads answer `MediaError.unavailable` and imports copy files as they are.
    public init(processor: (any ImageProcessor)?, settings: Config.Media, clock: Clock) {
        self.processor = processor
        self.settings = settings
        self.clock = clock
        folder = URL(fileURLWithPath: settings.path, isDirectory: true)
        throttle = UploadThrottle(perMinute: settings.maxUploadsPerMinute)
    }

    /// Whether pictures are re-encoded here (a processor was given).
    public var canProcess: Bool { processor != nil }

    /// Why `bytes` cannot be stored, found from the header alone (an import checks every file
    /// before it writes anything), or nil when it looks fine.
    func headerProblem(_ bytes: [UInt8]) -> MediaError? {
        guard let processor else { return .unavailable }
        guard let size = processor.dimensions(of: bytes) else { return .notAnImage }
        let (width, height) = size
        guard width <= settings.maxPixels, height <= settings.maxPixels, width * height <= settings.maxPixels else {
            return .tooManyPixels(width: width, height: height, limit: settings.maxPixels)
        }
        return nil
    }

    /// The display size's name for `bytes` (`<hash>-1280.jpg`), as `store` writes it.
    static func displayName(of bytes: [UInt8]) -> String {
        fileName(baseName(of: bytes), size: displaySize, type: "jpg")
    }

    /// A buyer's or a staff member's upload: checked in the order a client can fix it (empty, too large, not an image
    /// type, too many uploads), then decoded within `media.max_pixels` and stored. Nothing is
    /// written unless every rendition was made.
    public func upload(_ bytes: [UInt8], contentType: String?, by uploader: Uploader) throws -> StoredImage {
        guard !bytes.isEmpty else { throw MediaError.empty }
        guard bytes.count <= settings.maxUploadBytes else {
            throw MediaError.tooLarge(bytes: bytes.count, limit: settings.maxUploadBytes)
        }
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let type, Self.acceptedTypes.contains(type) else { throw MediaError.notAnImage }
        try throttle.admit(uploader, at: clock.unixNow)
        return try store(bytes)
    }

    /// `bytes` re-encoded and written (both sizes, JPEG and WebP), or the names already there.
    public func store(_ bytes: [UInt8]) throws -> StoredImage {
        guard let processor else { throw MediaError.unavailable }
        let base = Self.baseName(of: bytes)
        let stored = StoredImage(url: MediaPath.prefix + Self.fileName(base, size: Self.displaySize, type: "jpg"),
                                 thumbnailURL: MediaPath.prefix + Self.fileName(base, size: Self.thumbnailSize, type: "jpg"))
        let names = [Self.displaySize, Self.thumbnailSize].flatMap { size in
            ["jpg", "webp"].map { Self.fileName(base, size: size, type: $0) }
        }
        if names.allSatisfy({ FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }) {
            return stored
        }
        let renditions = try processor.renditions(of: bytes, maxPixels: settings.maxPixels,
                                                  sizes: [Self.displaySize, Self.thumbnailSize])
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for rendition in renditions {
            try write(rendition.jpeg, as: Self.fileName(base, size: rendition.size, type: "jpg"))
            try write(rendition.webp, as: Self.fileName(base, size: rendition.size, type: "webp"))
        }
        return stored
    }

    /// The PNG drawn from the SVG `bytes`, cached as `cachedName` (a path below `media.path`, such as
    /// `demo/rose-red.png`): drawn once, then read back.
    public func png(fromSVG bytes: [UInt8], cachedAs cachedName: String, size: Int = 1_200) throws -> [UInt8] {
        let cached = folder.appendingPathComponent(cachedName)
        if let data = FileManager.default.contents(atPath: cached.path), !data.isEmpty { return [UInt8](data) }
        guard let processor else { throw MediaError.unavailable }
        let png = try processor.png(fromSVG: bytes, size: size)
        try FileManager.default.createDirectory(at: cached.deletingLastPathComponent(), withIntermediateDirectories: true)
        try write(png, as: cachedName)
        return png
    }

    /// The thumbnail of a picture this library made (`/media/<hash>-1280.jpg` → `/media/<hash>-480.jpg`);
    /// any other URL is its own thumbnail.
    public static func thumbnailURL(for url: String) -> String {
        let suffix = "-\(displaySize).jpg"
        guard url.hasPrefix(MediaPath.prefix), url.hasSuffix(suffix),
              url.count == MediaPath.prefix.count + hashDigits + suffix.count else { return url }
        return String(url.dropLast(suffix.count)) + "-\(thumbnailSize).jpg"
    }

    /// The first 32 hex digits of the SHA-256 of the original.
    static func baseName(of bytes: [UInt8]) -> String {
        Digest.sha256(bytes).prefix(hashDigits / 2).map { String(format: "%02x", $0) }.joined()
    }

    static func fileName(_ base: String, size: Int, type: String) -> String {
        "\(base)-\(size).\(type)"
    }

    /// Written beside its place and renamed, so a reader never sees half a file.
    private func write(_ bytes: [UInt8], as name: String) throws {
        let target = folder.appendingPathComponent(name)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try Data(bytes).write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}

/// Who uploads a picture: a buyer (after-sale photos) or a staff member (delivery photos,
/// product pictures); each has their own per-minute allowance.
public enum Uploader: Hashable, Sendable {
    case buyer(UserID)
    case staff(StaffID)
}
