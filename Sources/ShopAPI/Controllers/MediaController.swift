import Bulkheads
import Foundation
import HTTP
import ShopCore

/// `GET /media/NAME` and `/media/FOLDER/NAME`: images the shop holds itself. The folders are
/// searched in order (`media.path`, then the demo pictures built into the binary) and read on
/// each request, so files added while the server runs are served at once.
struct MediaController {
    /// Where files are looked up, first match wins; each is resolved once (symbolic links followed).
    let folders: [URL]
    /// Draws a demo SVG as the PNG a share page names (`/media/demo/rose-red.png`), once, into `media.path`.
    let media: MediaLibrary?

    /// A name never changes its bytes (imports name files by content; a changed demo picture gets
    /// a new name), so browsers and proxies may keep a file for a year without asking again.
    static let cacheControl = "public, max-age=31536000, immutable"
    /// Files larger than this are not served (no image of a flower shop comes near it).
    static let maxBytes = 16 * 1_048_576

    init(folders: [URL], media: MediaLibrary? = nil) {
        self.folders = folders.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
        self.media = media
    }

    func register(_ routes: RouteGroup) {
        routes.get("/media/:file", use: image).get("/media/:folder/:file", use: image)
    }

    /// An image at the top of a media folder or one folder down (`/media/demo/rose-red.svg`).
    func image(_ request: Request, _ context: Context) throws -> Response {
        let path = request.path
        // MediaPath allows only plain names (no `..`, no leading dot, no separators), so the
        // file is always inside one of the folders; the resolved-path check below also keeps a
        // symbolic link from pointing elsewhere.
        guard let names = MediaPath.segments(of: path), let name = names.last,
              let contentType = MediaPath.contentType(of: name) else { throw HTTPError(.fileNotFound) }
        // A picture the shop re-encoded has a WebP beside its JPEG: smaller, for clients that take it.
        if name.hasSuffix(".jpg"), Self.acceptsWebP(request.headers["Accept"]),
           let webp = file(Array(names.dropLast()) + [Substring(name.dropLast(4) + ".webp")]) {
            return Self.response(webp, contentType: "image/webp", varies: true)
        }
        if let data = file(names) {
            return Self.response(data, contentType: contentType, varies: name.hasSuffix(".jpg"))
        }
        if name.hasSuffix(".png"), let media, let svg = file(Array(names.dropLast()) + [Substring(name.dropLast(4) + ".svg")]) {
            // Drawing takes a while: on the media bulkhead, never on a request thread.
            try RequestThread.offload(to: .media)
            let png = try media.png(fromSVG: svg, cachedAs: names.joined(separator: "/"))
            return Self.response(png, contentType: contentType, varies: false)
        }
        throw HTTPError(.fileNotFound)
    }

    /// Whether an `Accept` header names WebP (browsers that decode it say so).
    static func acceptsWebP(_ accept: String?) -> Bool {
        accept?.lowercased().contains("image/webp") == true
    }

    private static func response(_ bytes: [UInt8], contentType: String, varies: Bool) -> Response {
        var headers = Headers()
        headers.set("Content-Type", contentType)
        headers.set("Cache-Control", Self.cacheControl)
        headers.set("X-Content-Type-Options", "nosniff")
        if varies { headers.set("Vary", "Accept") }
        // An SVG opened on its own is a document that could run script; it may not, nor load anything.
        headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        return Response(status: .ok, headers: headers, body: bytes)
    }

    /// The bytes of the first folder's file at `names`, nil when no folder has it as a regular file.
    func file(_ names: [Substring]) -> [UInt8]? {
        for folder in folders {
            let url = names.reduce(folder) { $0.appendingPathComponent(String($1), isDirectory: false) }
                .resolvingSymlinksInPath()
            guard url.path.hasPrefix(folder.path + "/"),
                  let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let size = attributes[.size] as? Int, size <= Self.maxBytes,
                  let data = FileManager.default.contents(atPath: url.path) else { continue }
            return [UInt8](data)
        }
        return nil
    }
}

/// The demo pictures (SVG, built into `shop`) that share pages name as PNGs, drawn by libvips' SVG
/// loader into `media.path` when the demo shop is seeded, so every `og:image` is a real file from
/// the start (`/media/` still draws one on first request if a file went missing).
public enum DemoPreviewPictures {
    /// Draws the PNG of each `/media/demo/NAME.svg` in `urls` (`media.path/demo/NAME.png`), keeping
    /// those drawn already; answers how many PNGs are there, and the URLs that could not be drawn.
    public static func draw(_ urls: [String], with media: MediaLibrary) -> (ready: Int, failed: [String]) {
        guard media.canProcess, let folder = Bundle.module.url(forResource: "Media", withExtension: nil) else { return (0, urls) }
        let controller = MediaController(folders: [folder])
        var ready = 0
        var failed: [String] = []
        for url in urls {
            guard let names = MediaPath.segments(of: url), let svg = controller.file(names) else {
                failed.append(url)
                continue
            }
            do {
                _ = try media.png(fromSVG: svg, cachedAs: String(names.joined(separator: "/").dropLast(4)) + ".png")
                ready += 1
            } catch {
                failed.append(url)
            }
        }
        return (ready, failed)
    }
}
