import Foundation
import HTTP

/// The operators' web page at `GET /admin`: static HTML, CSS and JavaScript from `AdminPage/`,
/// read once at start-up. It holds no secret: it signs staff in through `/api/v1/admin/auth/login`
/// and works only through the admin API with that bearer token (kept in sessionStorage).
struct AdminPageController {
    let files: [String: StaticFile]

    /// Nothing but this origin's own files; no inline script or style; never framed; no referrer
    /// leaks an order number or a search to another site.
    static let securityPolicy = "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    static let contentTypes = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
                               "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml"]

    /// Loads every file of the bundled `AdminPage/` folder (one level, names only: no traversal).
    init(directory: URL?) {
        var files: [String: StaticFile] = [:]
        if let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) {
            for name in names {
                guard let type = Self.contentTypes[(name as NSString).pathExtension.lowercased()],
                      let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { continue }
                files[name] = StaticFile(contentType: type, body: [UInt8](data))
            }
        }
        self.files = files
    }

    func register(_ routes: RouteGroup) {
        routes.get("/admin", use: index).get("/admin/assets/:file", use: asset)
    }

    /// The operators' page (its own hash routes pick the screen).
    func index(_ request: Request, _ context: Context) throws -> Response {
        try serve("index.html", for: request)
    }

    /// A script, stylesheet or icon of the operators' page.
    func asset(_ request: Request, _ context: Context) throws -> Response {
        try serve(try request.parameter("file"), for: request)
    }

    private func serve(_ name: String, for request: Request) throws -> Response {
        guard let file = files[name] else { throw HTTPError(.fileNotFound) }
        var headers = Headers()
        headers.set("Content-Type", file.contentType)
        headers.set("Cache-Control", "no-cache")
        headers.set("X-Content-Type-Options", "nosniff")
        headers.set("Content-Security-Policy", Self.securityPolicy)
        headers.set("X-Frame-Options", "DENY")
        headers.set("Referrer-Policy", "no-referrer")
        return Response.conditional(Response(status: .ok, headers: headers, body: file.body), etag: file.etag, for: request)
    }
}
