import HTTP
import ShopCore

/// `GET /regions` (the provinces) and `GET /regions?parent=CODE` (the divisions under one): China's
/// administrative divisions by GB/T 2260 code, for the storefront's region picker (public). The
/// directory is built into the binary and never changes while it runs, so every answer carries a
/// strong `ETag` of its body, answers a matching `If-None-Match` with 304, and may be kept a day.
struct RegionController {
    let regions: RegionDirectory

    static let cacheControl = "public, max-age=86400"

    /// One division on the wire: `{"code": "110105", "name": "朝阳区"}`.
    struct RegionBody: Codable, Equatable {
        let code: RegionCode
        let name: String
    }

    func register(_ routes: RouteGroup) {
        routes.get("/regions", use: list)
    }

    /// The provinces, or the divisions under `parent` by code (none under a leaf); a code that is
    /// not six digits is 400, one no division has is 404.
    func list(_ request: Request, _ context: Context) throws -> Response {
        let items: [Region]
        if let parent = request.query["parent"] {
            items = try regions.children(of: RegionCode(validating: parent, field: "parent"))
        } else {
            items = regions.provinces
        }
        var response = try Response.json(ItemsResponse(items: items.map { RegionBody(code: $0.code, name: $0.name) }))
        response.headers.set("Cache-Control", Self.cacheControl)
        return .conditional(response, etag: Representation(body: response.body).etag, for: request)
    }
}
