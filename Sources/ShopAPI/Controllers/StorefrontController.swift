import Foundation
import HTTP

/// The storefront page at `/`: static HTML, CSS and JavaScript from `Public/`, read once at
/// start-up. It talks to the shop only through the public API and holds no secret.
struct StorefrontController {
    let files: [String: (contentType: String, body: [UInt8])]

    static let contentTypes = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                               "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
                               "json": "application/json; charset=utf-8", "ico": "image/x-icon"]

    /// Browser libraries the storefront uses, served at `/assets/vendor/NAME` from where their
    /// Debian package installs them for web servers (`/usr/share/javascript`), never copied into
    /// the repository: `qrcode.js` is Kazuhiko Arase's qrcode-generator (MIT), Debian
    /// `node-qrcode-generator` (in the Makefile's build packages), which draws WeChat Pay's `code_url`.
    static let debianLibraries = ["qrcode.js": "/usr/share/javascript/qrcode-generator/qrcode.js"]

    /// Loads every file of the bundled `Public/` folder (names only: no traversal) and each of
    /// `libraries` that is installed.
    init(directory: URL?, libraries: [String: String] = Self.debianLibraries) {
        var files: [String: (String, [UInt8])] = [:]
        if let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
            for name in names {
                let ext = (name as NSString).pathExtension.lowercased()
                guard let type = Self.contentTypes[ext],
                      let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { continue }
                files[name] = (type, [UInt8](data))
            }
        }
        for (name, path) in libraries {
            guard let type = Self.contentTypes[(name as NSString).pathExtension.lowercased()],
                  let data = FileManager.default.contents(atPath: path) else { continue }
            files["vendor/" + name] = (type, [UInt8](data))
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

    /// A library the storefront uses, as its Debian package installed it (`debianLibraries`).
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
