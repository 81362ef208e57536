import Foundation
import HTTP

/// The storefront page at `/`: static HTML, CSS and JavaScript from `Public/`, read once at
/// start-up. It talks to the shop only through the public API and holds no secret.
struct StorefrontController {
    let files: [String: (contentType: String, body: [UInt8])]

    static let contentTypes = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                               "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
                               "json": "application/json; charset=utf-8", "ico": "image/x-icon"]

    /// Loads every file of the bundled `Public/` folder and of its `vendor/` folder (libraries
    /// copied from Debian packages), names only: no traversal.
    init(directory: URL?) {
        var files: [String: (String, [UInt8])] = [:]
        for (folder, prefix) in [(directory, ""), (directory?.appendingPathComponent("vendor"), "vendor/")] {
            guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names {
                let ext = (name as NSString).pathExtension.lowercased()
                guard let type = Self.contentTypes[ext],
                      let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
                files[prefix + name] = (type, [UInt8](data))
            }
        }
        self.files = files
    }

    func register(_ routes: RouteGroup) {
        routes.get("/", use: index).get("/assets/:file", use: asset).get("/assets/vendor/:file", use: vendored)
    }

    /// The storefront's page.
    func index(_ request: Request, _ context: Context) throws -> Response {
        try serve("index.html")
    }

    /// A stylesheet, script or image of the storefront.
    func asset(_ request: Request, _ context: Context) throws -> Response {
        try serve(try request.parameter("file"))
    }

    /// A library the storefront uses as it came from its Debian package (`Public/vendor/README.md`).
    func vendored(_ request: Request, _ context: Context) throws -> Response {
        try serve("vendor/" + (try request.parameter("file")))
    }

    private func serve(_ name: String) throws -> Response {
        guard let file = files[name] else { throw HTTPError(.fileNotFound) }
        var headers = Headers()
        headers.set("Content-Type", file.contentType)
        headers.set("Cache-Control", "no-cache")
        headers.set("X-Content-Type-Options", "nosniff")
        // No other site may frame the shop (clickjacking): CSP for current browsers, X-Frame-Options for old ones.
        headers.set("Content-Security-Policy",
                    "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
        headers.set("X-Frame-Options", "DENY")
        return Response(status: .ok, headers: headers, body: file.body)
    }
}
