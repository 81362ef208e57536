import HTTP
import ShopCore

/// `/healthz` (the process answers) and `/readyz` (migrated, the database answers, not draining).
struct HealthController {
    let shop: Shop

    struct HealthResponse: Codable { let status: String }

    func register(_ routes: RouteGroup) {
        routes.get("/healthz", use: health).get("/readyz", use: ready)
    }

    /// Always 200 while the process serves. Load balancers ask many times a second, so the
    /// answer is encoded once.
    func health(_ request: Request, _ context: Context) throws -> Response {
        try Self.healthy.get()
    }

    private static let healthy = Result { try Response.json(HealthResponse(status: "ok")) }

    /// 200 once migrations are applied and the database answers, else 503 `unavailable`; 503
    /// `draining` once the server has been told to stop, while it still serves for a short grace.
    func ready(_ request: Request, _ context: Context) throws -> Response {
        if shop.isDraining { return try .json(HealthResponse(status: "draining"), status: .serviceUnavailable) }
        return try shop.isReady() ? try .json(HealthResponse(status: "ok"))
                              : try .json(HealthResponse(status: "unavailable"), status: .serviceUnavailable)
    }
}
