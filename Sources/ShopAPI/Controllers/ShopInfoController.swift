import HTTP
import ShopCore

/// `GET /shop-info`: what a storefront shows about the shop itself — its name, how to reach
/// customer service and the time zone its delivery days are in (`app.name`, `app.service_contact`,
/// `app.timezone`). Settings only, so the body is encoded once, and clients may keep it a while
/// (`Cache-Control`, `ETag`).
struct ShopInfoController {
    /// `{"name", "service_contact", "timezone"}`; the contact is empty when the shop names none.
    struct ShopInfoResponse: Codable {
        let name: String
        let serviceContact: String
        /// An IANA name: a storefront says 今天/明天 of `/delivery/dates` in it, not in the browser's zone.
        let timezone: String
    }

    static let cacheControl = "public, max-age=300"

    /// The body and its tag, made once (settings do not change while the shop runs).
    let representation: Result<Representation, any Error>

    init(app: Config.App) {
        representation = Result {
            Representation(body: try JSON.encode(ShopInfoResponse(name: app.name, serviceContact: app.serviceContact, timezone: app.timezone)))
        }
    }

    func register(_ routes: RouteGroup) {
        routes.get("/shop-info", use: show)
    }

    /// 200 with the shop's name and contact, or 304 when the client holds this body.
    func show(_ request: Request, _ context: Context) throws -> Response {
        var headers = Headers()
        headers.set("Content-Type", "application/json; charset=utf-8")
        headers.set("Cache-Control", Self.cacheControl)
        let kept = try representation.get()
        return .conditional(Response(headers: headers, body: kept.body), etag: kept.etag, for: request)
    }
}
