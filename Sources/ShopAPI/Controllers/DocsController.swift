import Crypto
import Foundation
import HTTP

/// `GET /openapi.json`, the contract this server implements (read once at start-up), with its
/// `servers` naming the shop's origin (`ShopOrigin`); and `GET /docs`, a page that renders that
/// document in the browser (our own HTML, CSS and JavaScript from `DocsPage/`) with a try-it form.
struct DocsController {
    let document: OpenAPIDocument?
    let origin: ShopOrigin
    let page: [String: StaticFile]

    static let securityPolicy = "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
        + "script-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

    /// Serves `document` (nil means 404) and the page's files read from `pageDirectory`.
    init(document: [UInt8]?, pageDirectory: URL?, origin: ShopOrigin) {
        self.document = document.map { OpenAPIDocument($0) }
        self.origin = origin
        var page: [String: StaticFile] = [:]
        let types = ["html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8"]
        if let pageDirectory, let names = try? FileManager.default.contentsOfDirectory(atPath: pageDirectory.path) {
            for name in names {
                guard let type = types[(name as NSString).pathExtension.lowercased()],
                      let data = FileManager.default.contents(atPath: pageDirectory.appendingPathComponent(name).path) else { continue }
                page[name] = StaticFile(contentType: type, body: [UInt8](data))
            }
        }
        self.page = page
    }

    func register(_ routes: RouteGroup) {
        routes.get("/openapi.json", use: show).get("/docs", use: docs).get("/docs/assets/:file", use: asset)
    }

    /// The OpenAPI document, its `servers` set to the shop's origin.
    func show(_ request: Request, _ context: Context) throws -> Response {
        guard let document else { throw HTTPError(.documentNotDeployed) }
        var headers = Headers()
        headers.set("Content-Type", "application/json; charset=utf-8")
        headers.set("Cache-Control", "no-cache")
        origin.addVary(to: &headers)
        return Response(status: .ok, headers: headers, body: document.bytes(serving: origin.origin(for: request)))
    }

    /// The API reference page.
    func docs(_ request: Request, _ context: Context) throws -> Response {
        try serve("docs.html", for: request)
    }

    /// The page's stylesheet or script.
    func asset(_ request: Request, _ context: Context) throws -> Response {
        try serve(try request.parameter("file"), for: request)
    }

    private func serve(_ name: String, for request: Request) throws -> Response {
        guard let file = page[name] else { throw HTTPError(.fileNotFound) }
        var headers = Headers()
        headers.set("Content-Type", file.contentType)
        headers.set("Cache-Control", "no-cache")
        headers.set("X-Content-Type-Options", "nosniff")
        headers.set("Content-Security-Policy", Self.securityPolicy)
        headers.set("X-Frame-Options", "DENY")
        return Response.conditional(Response(status: .ok, headers: headers, body: file.body), etag: file.etag, for: request)
    }
}

/// One file of a page, read once, with the strong tag of its bytes.
struct StaticFile: Sendable {
    let contentType: String
    let body: [UInt8]
    let etag: EntityTag

    init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        self.body = body
        etag = EntityTag(Hex.encode(Digest.sha256(body).prefix(16)))
    }
}

/// The OpenAPI document's bytes as written, split around the value of its top-level `servers`
/// key, so each answer can name the request's own origin without re-encoding the document (which
/// would lose its key order).
struct OpenAPIDocument: Sendable {
    let bytes: [UInt8]
    /// Where the `servers` array's text lies in `bytes`; nil when the document has none.
    let servers: Range<Int>?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        servers = Self.topLevelValue(of: "servers", in: bytes)
    }

    /// The document with `servers` naming `origin` alone (a checked `scheme://host[:port]`, so
    /// nothing in it needs escaping); as written when `origin` is nil.
    func bytes(serving origin: String?) -> [UInt8] {
        guard let origin, let servers else { return bytes }
        return Array(bytes[..<servers.lowerBound]) + Array("[\n    {\n      \"url\": \"\(origin)\"\n    }\n  ]".utf8)
            + Array(bytes[servers.upperBound...])
    }

    /// The byte range of the value of `key` in the outermost JSON object of `bytes`; nil when the
    /// key is absent or the text is not such an object. Strings are skipped whole (escapes
    /// included), so a quote or bracket inside a description never counts.
    static func topLevelValue(of key: String, in bytes: [UInt8]) -> Range<Int>? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var depth = 0
        var index = 0
        var valueStart: Int?
        var lastEnd = 0
        /// The index just past the string that starts at `start` (a quote).
        func endOfString(_ start: Int) -> Int? {
            var i = start + 1
            while i < bytes.count {
                if bytes[i] == backslash { i += 2; continue }
                if bytes[i] == quote { return i + 1 }
                i += 1
            }
            return nil
        }
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case quote:
                guard let end = endOfString(index) else { return nil }
                if depth == 1, valueStart == nil {
                    var next = end
                    while next < bytes.count, isBlank(bytes[next]) { next += 1 }
                    if next < bytes.count, bytes[next] == UInt8(ascii: ":"),
                       Array(bytes[(index + 1)..<(end - 1)]) == Array(key.utf8) {
                        next += 1
                        while next < bytes.count, isBlank(bytes[next]) { next += 1 }
                        valueStart = next
                        index = next
                        continue
                    }
                }
                index = end
                lastEnd = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 1, let start = valueStart { return start..<lastEnd }
                depth -= 1
                if depth == 1, let start = valueStart { return start..<(index + 1) }
            case UInt8(ascii: ","):
                if depth == 1, let start = valueStart { return start..<lastEnd }
            default:
                break
            }
            if !isBlank(byte) { lastEnd = index + 1 }
            index += 1
        }
        return nil
    }
}
