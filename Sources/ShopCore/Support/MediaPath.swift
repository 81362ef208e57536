/// Images the shop holds itself, served under `/media/` (from `media.path`, then the demo pictures
/// built into the binary). One rule for what such a path may look like, shared by the `/media/`
/// route and by every field that stores an image URL, so a stored path is always one the route
/// can answer and no path can step outside the media folders.
public enum MediaPath {
    /// The URL path prefix of the route.
    public static let prefix = "/media/"
    /// At most this many folder levels below the prefix (`demo/rose-red.svg` is two).
    public static let maxSegments = 2

    /// The image formats served, by lowercase file extension.
    public static let contentTypes = ["svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
                                      "webp": "image/webp", "gif": "image/gif", "avif": "image/avif"]

    /// A folder or file name: ASCII letters, digits, `.`, `_`, `-`, not starting with a dot (so
    /// never `.` or `..`), at most 128 characters.
    public static func isName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "."), name.utf8.count <= 128 else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// The names below `/media/` of a media file path (`/media/demo/rose-red.svg` → `["demo",
    /// "rose-red.svg"]`), or nil when `path` is not one: wrong prefix, empty or unsafe names, too
    /// deep, or a file type that is not an image.
    public static func segments(of path: String) -> [Substring]? {
        guard path.hasPrefix(prefix) else { return nil }
        let names = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...maxSegments).contains(names.count), names.allSatisfy(isName), let file = names.last,
              contentType(of: file) != nil else { return nil }
        return names
    }

    /// The Content-Type of an image file name by its extension, or nil when it is not one served.
    public static func contentType(of file: Substring) -> String? {
        guard let dot = file.lastIndex(of: ".") else { return nil }
        return contentTypes[file[file.index(after: dot)...].lowercased()]
    }
}
