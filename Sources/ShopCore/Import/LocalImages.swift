import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Local image files named in a catalogue file's `cover_url` and `image_urls`: each is checked
/// (a regular file, not a symbolic link, inside the catalogue file's folder or a folder the operator
/// allowed, at most `maxBytes`, a PNG, JPEG, WebP or GIF by its first bytes), named by its content
/// (`<sha256 prefix>.<extension>`) and, once the import is sure to be written, copied into
/// `media.path`, from where the shop serves it as `/media/<name>` with a year-long cache. With a
/// `MediaLibrary` that can re-encode, PNG, JPEG and WebP photos are not copied but re-encoded as
/// uploads are (`<hash>-1280.jpg` and its thumbnail, JPEG and WebP, no metadata; the header is
/// checked against `media.max_pixels` while the file is read, the pixels decoded at the copy). Text
/// formats (SVG, which may be any file that starts with `<`) are never published from a path.
final class LocalImages {
    /// Larger image files are refused (the shop serves up to 16 MiB; a product photo needs far less).
    static let maxBytes = 8 * 1_048_576
    /// Hex digits of the SHA-256 in a name: 128 bits, no two images ever share one.
    static let hashDigits = 32

    /// The catalogue file's folder, against which relative paths resolve; nil when there is no file.
    let baseFolder: URL?
    /// The real paths (every link followed) of the folders images may come from: the catalogue
    /// file's and those given with `--allow-paths`.
    private let allowedRoots: [String]
    let mediaFolder: URL
    /// Re-encodes photos (nil: every file is copied as it is).
    private let media: MediaLibrary?
    /// Each path already looked at, and what it became.
    private var resolved: [String: Result<String, ImageProblem>] = [:]
    /// Files to copy when the import commits: media name → source path.
    private(set) var pending: [String: String] = [:]

    struct ImageProblem: Error {
        let reason: String
    }

    init(baseFolder: URL?, allowedFolders: [URL] = [], mediaFolder: URL, media: MediaLibrary? = nil) {
        self.media = media
        self.baseFolder = baseFolder
        allowedRoots = ([baseFolder].compactMap { $0 } + allowedFolders).compactMap { Self.realPath($0.path) }
        self.mediaFolder = mediaFolder
    }

    /// Whether a value names a local file rather than a URL (`rose.jpg`, `img/rose.jpg`, `/srv/rose.jpg`).
    static func isLocalPath(_ value: String) -> Bool {
        !value.contains("://") && MediaPath.segments(of: value) == nil
    }

    /// The `/media/` URL for the file `value` names, or why it cannot be one.
    func mediaURL(for value: String) -> Result<String, ImageProblem> {
        if let known = resolved[value] { return known }
        let result = resolve(value).map { url, source in
            pending[String(url.dropFirst(MediaPath.prefix.count))] = source
            return url
        }
        resolved[value] = result
        return result
    }

    private func path(of value: String) -> String? {
        if value.hasPrefix("/") { return URL(fileURLWithPath: value).standardizedFileURL.path }
        return baseFolder.map { $0.appendingPathComponent(value).standardizedFileURL.path }
    }

    /// The `/media/` URL and the real path of the file to copy, or why it cannot be one.
    private func resolve(_ value: String) -> Result<(url: String, source: String), ImageProblem> {
        guard let path = path(of: value) else {
            return .failure(ImageProblem(reason: "\"\(value.prefix(60))\": a local image path needs the catalogue file's folder"))
        }
        do {
            let real = try checkedLocation(path, shownAs: value)
            let bytes = try Self.read(real, shownAs: value)
            guard let type = Self.imageType(of: bytes) else {
                return .failure(ImageProblem(reason: "image file \(value.prefix(60)) is not a PNG, JPEG, WebP or GIF image"))
            }
            if let media, type != "gif" {
                switch media.headerProblem(bytes) {
                case nil: return .success((MediaPath.prefix + MediaLibrary.displayName(of: bytes), real))
                case .tooManyPixels(let width, let height, let limit):
                    return .failure(ImageProblem(reason: "image file \(value.prefix(60)) is \(width) × \(height) pixels, over the limit of \(limit) (media.max_pixels)"))
                default:
                    return .failure(ImageProblem(reason: "image file \(value.prefix(60)) is not a readable PNG, JPEG or WebP image"))
                }
            }
            return .success((MediaPath.prefix + Self.name(of: bytes, type: type), real))
        } catch let problem as ImageProblem {
            return .failure(problem)
        } catch {
            return .failure(ImageProblem(reason: "image file \(value.prefix(60)) cannot be read"))
        }
    }

    /// The real path of `path`, refused when the file itself is a symbolic link or when it lies (any
    /// link in its folders followed) outside every allowed folder: a catalogue file cannot publish
    /// `/etc/…` or a key beside the shop.
    private func checkedLocation(_ path: String, shownAs value: String) throws -> String {
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
            throw ImageProblem(reason: "image file \(value.prefix(60)) is a symbolic link; name the file itself")
        }
        guard let real = Self.realPath(path) else {
            throw ImageProblem(reason: "image file \(value.prefix(60)) does not exist, cannot be read or is not a regular file")
        }
        guard allowedRoots.contains(where: { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            throw ImageProblem(reason: "image file \(value.prefix(60)) is outside the catalogue file's folder; "
                + "name its folder with --allow-paths to import it")
        }
        return real
    }

    /// The path with every symbolic link and `..` resolved, nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `<first 32 hex digits of the SHA-256>.<extension>`.
    static func name(of bytes: [UInt8], type: String) -> String {
        Digest.sha256(bytes).prefix(hashDigits / 2).map { String(format: "%02x", $0) }.joined() + "." + type
    }

    /// A regular file's bytes, at most `maxBytes`.
    private static func read(_ path: String, shownAs value: String) throws -> [UInt8] {
        let source: FileImportSource
        do {
            source = try FileImportSource(path: path, maxBytes: maxBytes)
        } catch ImportError.fileTooLarge(let bytes, let limit) {
            throw ImageProblem(reason: "image file \(value.prefix(60)) is \(bytes) bytes, over the limit of \(limit) bytes")
        } catch ImportError.unreadable {
            throw ImageProblem(reason: "image file \(value.prefix(60)) does not exist, cannot be read or is not a regular file")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.totalBytes)
        while let chunk = try source.next() { bytes += chunk }
        return bytes
    }

    /// The file extension of an image by its magic number, nil when it is none of the four.
    static func imageType(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "gif" }
        if bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && bytes[8..<12].elementsEqual("WEBP".utf8) { return "webp" }
        return nil
    }

    /// Copies every pending file into the media folder under its name (written beside it, then
    /// renamed, so a reader never sees half a file); a file already there has those very bytes.
    func copyPending() throws {
        guard !pending.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(at: mediaFolder, withIntermediateDirectories: true)
        } catch {
            throw ImportError.unreadable("cannot create the media folder \(mediaFolder.path)")
        }
        for (name, source) in pending.sorted(by: { $0.key < $1.key }) {
            let target = mediaFolder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: target.path) { continue }
            let bytes: [UInt8]
            do {
                bytes = try Self.read(source, shownAs: source)
            } catch let problem as ImageProblem {
                throw ImportError.unreadable(problem.reason)
            }
            if let media, name.hasSuffix("-\(MediaLibrary.displaySize).jpg") {
                guard MediaLibrary.displayName(of: bytes) == name else {
                    throw ImportError.unreadable("\(source) changed during the import; import again")
                }
                do {
                    _ = try media.store(bytes)
                } catch {
                    throw ImportError.unreadable("image file \(source) cannot be decoded (a damaged or truncated image?)")
                }
                continue
            }
            guard let type = Self.imageType(of: bytes), Self.name(of: bytes, type: type) == name else {
                throw ImportError.unreadable("\(source) changed during the import; import again")
            }
            let temporary = mediaFolder.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
            do {
                try Data(bytes).write(to: temporary)
                if rename(temporary.path, target.path) != 0 { throw ImageProblem(reason: "rename") }
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw ImportError.unreadable("cannot write \(target.path)")
            }
        }
    }
}
