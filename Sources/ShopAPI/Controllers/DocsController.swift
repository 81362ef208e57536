import Foundation
import HTTP

/// `GET /openapi.json`: the contract this server implements, read once at start-up.
struct DocsController {
    let document: [UInt8]?

    /// Reads the document at `path` (relative to the working directory); a missing file means 404.
    init(path: String) {
        document = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    func register(_ routes: RouteGroup) {
        routes.get("/openapi.json", use: show)
    }

    func show(_ request: Request, _ context: Context) throws -> Response {
        guard let document else { throw HTTPError(.documentNotDeployed) }
        var headers = Headers()
        headers.set("Content-Type", "application/json; charset=utf-8")
        return Response(status: .ok, headers: headers, body: document)
    }
}
