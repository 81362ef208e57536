import Bulkheads
import Metrics
import Synchronization

/// Where the router writes the route it matched, for middleware outside it to read afterwards.
/// The middleware puts a fresh one in the `Context` (`Context.matchedRoute`).
public final class MatchedRoute: Sendable {
    /// One route as the router reports it, made once when the router is built (so reporting it
    /// stores one reference).
    final class Route: Sendable {
        let pattern: String
        /// The route's position among all routes as added.
        let index: Int

        init(pattern: String, index: Int) {
            self.pattern = pattern
            self.index = index
        }
    }

    private let route = Mutex<Route?>(nil)

    public init() {}

    /// The route pattern (`/api/v1/products/:id`), nil when no route matched.
    public var value: String? { route.withLock { $0?.pattern } }

    /// The route's position among all routes as added, nil when no route matched.
    var index: Int? { route.withLock { $0?.index } }

    func set(_ matched: Route) { route.withLock { $0 = matched } }
}

/// Counts every request by route pattern, method and status, and times it by route:
/// `shop_http_requests_total` and `shop_http_request_duration_seconds`. A path no route matches
/// (404, 405) counts under `route="unmatched"`, so label values stay a bounded set.
///
/// The series for each (route, method, status) are found in the registry once and kept here, so a
/// request costs one small lookup instead of building label arrays and searching the registry.
public struct MetricsMiddleware: Middleware {
    private let requests: Counter
    private let durations: Histogram
    private let known = KnownSeries()

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
        context.matchedRoute = matched
        var status = 500
        var answered = true
        defer {
            if answered {
                let series = series(matched, HTTPMethod(rawValue: request.method), status)
                series.requests.inc()
                series.duration.observe(MonotonicClock.milliseconds(since: started) / 1000)
            }
        }
        do {
            let response = try next(request, context)
            status = response.status.code
            return response
        } catch let error as HTTPError {
            let response = error.response(for: request)
            status = response.status.code
            return response
        } catch let offload as OffloadRequest {
            // counted once, when the bulkhead answers it
            answered = false
            throw offload
        }
    }

    private func series(_ matched: MatchedRoute, _ method: HTTPMethod?, _ status: Int) -> KnownSeries.Series {
        let key = KnownSeries.Key(route: matched.index ?? -1, method: method, status: status)
        if let series = known.series.withLock({ $0[key] }) { return series }
        let route = matched.value ?? "unmatched"
        let series = KnownSeries.Series(requests: requests.series([route, method?.rawValue ?? "other", String(status)]),
                                        duration: durations.series([route]))
        known.series.withLock { $0[key] = series }
        return series
    }
}

/// The series a `MetricsMiddleware` has counted into so far (bounded: routes × methods × statuses).
private final class KnownSeries: Sendable {
    struct Key: Hashable {
        /// The route's index, -1 when none matched.
        let route: Int
        /// Nil for a method outside `HTTPMethod` (counted as `other`).
        let method: HTTPMethod?
        let status: Int

        /// One word to hash instead of three fields; the method is left to `==`.
        func hash(into hasher: inout Hasher) {
            hasher.combine(route &<< 32 ^ status)
        }
    }

    /// A class, so a request copies one reference out of the dictionary instead of three.
    final class Series: Sendable {
        let requests: Counter.Series
        let duration: Histogram.Series

        init(requests: Counter.Series, duration: Histogram.Series) {
            self.requests = requests
            self.duration = duration
        }
    }

    let series = Mutex<[Key: Series]>([:])
}
