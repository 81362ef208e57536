import Metrics
import Synchronization

/// Where the router writes the pattern it matched, for middleware outside it to read afterwards.
/// The middleware puts a fresh one in the `Context` under `MatchedRoute.Key`.
public final class MatchedRoute: Sendable {
    public enum Key: ContextKey { public typealias Value = MatchedRoute }
    private let pattern = Mutex<String?>(nil)

    public init() {}

    /// The route pattern (`/api/v1/products/:id`), nil when no route matched.
    public var value: String? { pattern.withLock { $0 } }

    func set(_ value: String) { pattern.withLock { $0 = value } }
}

/// Counts every request by route pattern, method and status, and times it by route:
/// `shop_http_requests_total` and `shop_http_request_duration_seconds`. A path no route matches
/// (404, 405) counts under `route="unmatched"`, so label values stay a bounded set.
public struct MetricsMiddleware: Middleware {
    private let requests: Counter
    private let durations: Histogram
    private static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    public init(registry: MetricsRegistry) {
        requests = registry.counter("shop_http_requests_total", help: "HTTP requests by route pattern, method and status.",
                                    labels: ["route", "method", "status"])
        durations = registry.histogram("shop_http_request_duration_seconds",
                                       help: "Time to answer an HTTP request, by route pattern.", labels: ["route"])
    }

    public func respond(to request: Request, context: Context, next: Responder) throws -> Response {
        let started = MonotonicClock.now()
        let matched = MatchedRoute()
        var context = context
        context[MatchedRoute.Key.self] = matched
        var status = 500
        defer {
            let route = matched.value ?? "unmatched"
            let method = Self.methods.contains(request.method) ? request.method : "other"
            requests.inc([route, method, String(status)])
            durations.observe(MonotonicClock.milliseconds(since: started) / 1000, [route])
        }
        do {
            let response = try next(request, context)
            status = response.status.code
            return response
        } catch let error as HTTPError {
            let response = error.response(for: request)
            status = response.status.code
            return response
        }
    }
}
