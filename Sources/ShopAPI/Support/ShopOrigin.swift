import HTTP
import ShopCore

/// The origin absolute links are written under (share pages, `/openapi.json`'s `servers`). In
/// production only `app.public_url`, never anything a request says. In development without it,
/// the origin the request reached (`Request.publicOrigin`): such an answer varies with the fields
/// that named it and must never be kept in a shared cache for others.
struct ShopOrigin: Sendable {
    private enum Source: Sendable {
        case configured(String)
        case request(TrustedProxies)
        /// Production without `app.public_url` (`shop serve` refuses to start so): no origin.
        case none
    }

    private let source: Source

    /// `app.public_url` when set and valid; else the request's origin in development, none in production.
    init(config: Config, proxies: TrustedProxies) {
        if let url = (try? config.publicBaseURL()) ?? nil {
            source = .configured(url)
        } else {
            source = config.app.env == .development ? .request(proxies) : .none
        }
    }

    /// `scheme://host[:port]` for links in the answer to `request`; nil when none is known.
    func origin(for request: Request) -> String? {
        switch source {
        case .configured(let url): url
        case .request(let proxies): request.publicOrigin(trusting: proxies)
        case .none: nil
        }
    }

    /// Whether answers take their origin from the request, so caches must keep them apart by
    /// `varyFields` and never share them (`Cache-Control: private`).
    var followsRequests: Bool {
        if case .request = source { return true }
        return false
    }

    /// Marks `headers` of an answer built with `origin(for:)`: `Vary` on the fields that chose
    /// the origin (`Host`, and the forwarding fields when a proxy is trusted).
    func addVary(to headers: inout Headers) {
        guard case .request(let proxies) = source else { return }
        headers.addVary(proxies.isEmpty ? ["Host"] : ["Host", "X-Forwarded-Host", "X-Forwarded-Proto"])
    }
}
