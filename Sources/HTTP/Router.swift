/// Matches method + path (`/api/v1/products/:id`) to a handler; 404 and 405 in the error shape.
///
/// Routes are added while the application is composed, before the server starts; after that the
/// router is only read, from many threads.
public final class Router: @unchecked Sendable {
    struct Route {
        let method: String
        let pattern: String
        let segments: [Segment]
        /// How many segments are literal: the more, the more specific the pattern.
        let specificity: Int
        let responder: Responder
    }

    enum Segment: Equatable {
        case literal(String)
        case parameter(String)
    }

    private var routes: [Route] = []

    public init() {}

    /// Every route as (method, pattern), in the order added: for docs and the contract test.
    public var routeTable: [(method: String, pattern: String)] {
        routes.map { ($0.method, $0.pattern) }
    }

    /// Adds a route; `middleware` wraps only this route, the first outermost.
    public func add(_ method: HTTPMethod, _ pattern: String, middleware: [any Middleware] = [], use handler: @escaping Responder) {
        let segments = Self.split(pattern).map { part -> Segment in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
        let specificity = segments.filter { if case .literal = $0 { true } else { false } }.count
        routes.append(Route(method: method.rawValue, pattern: pattern, segments: segments, specificity: specificity,
                            responder: middleware.wrapping(handler)))
    }

    /// A group of routes sharing a path prefix and middleware.
    public func group(_ prefix: String, middleware: [any Middleware] = []) -> RouteGroup {
        RouteGroup(router: self, prefix: prefix, middleware: middleware)
    }

    /// Dispatches a request: the matching handler, else 405 (path known, method not) or 404.
    /// When several patterns match a path, the most specific (most literal segments) wins, so
    /// `/articles/top` is not also `/articles/:id`.
    public func respond(to request: Request, context: Context) throws -> Response {
        let parts = Self.split(request.path)
        var best: [(route: Route, parameters: [String: String])] = []
        var bestSpecificity = -1
        for route in routes {
            guard let parameters = Self.match(route.segments, parts) else { continue }
            let specificity = route.specificity
            if specificity > bestSpecificity {
                best = [(route, parameters)]
                bestSpecificity = specificity
            } else if specificity == bestSpecificity {
                best.append((route, parameters))
            }
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        if let (route, parameters) = best.first(where: { $0.route.method == method }) {
            var request = request
            request.parameters = parameters
            return try route.responder(request, context)
        }
        if best.isEmpty { throw HTTPError.notFound("No route for \(request.path).") }
        var allowed = Set(best.map(\.route.method))
        if allowed.contains("GET") { allowed.insert("HEAD") }
        var response = HTTPError(.methodNotAllowed, code: "method_not_allowed",
                                 message: "\(request.method) is not allowed here.").response
        response.headers.set("Allow", allowed.sorted().joined(separator: ", "))
        return response
    }

    static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    static func match(_ segments: [Segment], _ parts: [Substring]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): if text != part { return nil }
            case .parameter(let name): parameters[name] = String(part)
            }
        }
        return parameters
    }
}

/// Routes under one prefix with shared middleware: `api.get("/cart", use: show)`.
public struct RouteGroup {
    let router: Router
    let prefix: String
    let middleware: [any Middleware]

    /// A nested group: the prefixes join and the middleware add up.
    public func group(_ prefix: String, middleware: [any Middleware] = []) -> RouteGroup {
        RouteGroup(router: router, prefix: self.prefix + prefix, middleware: self.middleware + middleware)
    }

    @discardableResult
    public func on(_ method: HTTPMethod, _ path: String, use handler: @escaping Responder) -> RouteGroup {
        router.add(method, prefix + path, middleware: middleware, use: handler)
        return self
    }

    @discardableResult
    public func get(_ path: String, use handler: @escaping Responder) -> RouteGroup { on(.get, path, use: handler) }
    @discardableResult
    public func post(_ path: String, use handler: @escaping Responder) -> RouteGroup { on(.post, path, use: handler) }
    @discardableResult
    public func patch(_ path: String, use handler: @escaping Responder) -> RouteGroup { on(.patch, path, use: handler) }
    @discardableResult
    public func put(_ path: String, use handler: @escaping Responder) -> RouteGroup { on(.put, path, use: handler) }
    @discardableResult
    public func delete(_ path: String, use handler: @escaping Responder) -> RouteGroup { on(.delete, path, use: handler) }
}
