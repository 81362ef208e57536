import Bulkheads

/// Collects routes while the application is composed; `Router(routes)` then freezes them.
///
/// Not Sendable on purpose: it is filled on one thread, before the server starts, and only the
/// frozen `Router` is shared.
public final class Routes {
    struct Route {
        let method: String
        let pattern: String
        let segments: [Segment]
        let responder: Responder
        /// Where the route always runs, when not on the request thread (see `Routes.add`).
        let bulkhead: BulkheadName?
    }

    enum Segment: Equatable {
        case literal(String)
        case parameter(String)
    }

    private(set) var routes: [Route] = []

    public init() {}

    /// Adds a route; `middleware` wraps only this route, the first outermost.
    ///
    /// `bulkhead`: the route always waits (for its commit, a hash, a picture), so it runs there, never
    /// on a request thread. The server asks `Router.bulkhead(for:)` before it runs anything, so the
    /// request moves before its middleware (authentication) has run, and runs once. Only for methods
    /// other than GET and HEAD, which the server answers where they arrive without a look-up.
    public func add(_ method: HTTPMethod, _ pattern: String, middleware: [any Middleware] = [], on bulkhead: BulkheadName? = nil,
                    use handler: @escaping Responder) {
        precondition(bulkhead == nil || (method != .get && method != .head), "GET and HEAD routes run on the request threads")
        let segments = Router.split(pattern).map { part -> Segment in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(part)
        }
        // Still wrapped: where the server did not move it (no such bulkhead there, a test calling
        // the router on a request thread), the handler moves it as `offloading(to:)` does.
        let handler = bulkhead.map { offloading(to: $0, handler) } ?? handler
        routes.append(Route(method: method.rawValue, pattern: pattern, segments: segments,
                            responder: middleware.wrapping(handler), bulkhead: bulkhead))
    }

    /// A group of routes sharing a path prefix and middleware.
    public func group(_ prefix: String, middleware: [any Middleware] = []) -> RouteGroup {
        RouteGroup(routes: self, prefix: prefix, middleware: middleware)
    }
}

/// Matches method + path (`/api/v1/products/:id`) to a handler; 404 and 405 in the error shape.
///
/// Immutable once made from `Routes`, so any number of threads share it. The patterns form a tree
/// of path segments, literal children in a dictionary beside one parameter child, with each
/// pattern's handlers keyed by method at its end: a lookup walks the path once (trying a
/// parameter only where the segment could also be one) instead of testing every route.
public struct Router: Sendable {
    /// One handler at the end of a pattern. A class: every request copies the one it reaches out
    /// of the router's dictionaries, and one shared reference is cheaper to copy than four.
    final class Endpoint: Sendable {
        /// Position among all routes as added: among equally specific patterns the first wins.
        let order: Int
        /// The pattern as added (e.g. `/api/v1/products/:id`) and `order`, as the router reports
        /// them to `Context.matchedRoute`.
        let route: MatchedRoute.Route
        /// The name of each parameter segment, in path order.
        let parameterNames: [String]
        let responder: Responder
        let bulkhead: BulkheadName?

        init(order: Int, route: MatchedRoute.Route, parameterNames: [String], responder: @escaping Responder,
             bulkhead: BulkheadName?) {
            self.order = order
            self.route = route
            self.parameterNames = parameterNames
            self.responder = responder
            self.bulkhead = bulkhead
        }
    }

    /// The patterns that continue past one segment position.
    final class Node: Sendable {
        let literals: [String: Node]
        let parameter: Node?
        /// The handlers of the patterns ending here, by method; the first added per method.
        let endpoints: [String: Endpoint]

        init(_ routes: [(order: Int, route: Routes.Route)], depth: Int) {
            var endpoints: [String: Endpoint] = [:]
            var literalRoutes: [String: [(order: Int, route: Routes.Route)]] = [:]
            var parameterRoutes: [(order: Int, route: Routes.Route)] = []
            for entry in routes {
                let segments = entry.route.segments
                guard depth < segments.count else {
                    if endpoints[entry.route.method] == nil {
                        let names = segments.compactMap { segment -> String? in
                            if case .parameter(let name) = segment { name } else { nil }
                        }
                        let matched = MatchedRoute.Route(pattern: entry.route.pattern, index: entry.order)
                        endpoints[entry.route.method] = Endpoint(order: entry.order, route: matched, parameterNames: names,
                                                                 responder: entry.route.responder, bulkhead: entry.route.bulkhead)
                    }
                    continue
                }
                switch segments[depth] {
                case .literal(let text): literalRoutes[text, default: []].append(entry)
                case .parameter: parameterRoutes.append(entry)
                }
            }
            self.endpoints = endpoints
            literals = literalRoutes.mapValues { Node($0, depth: depth + 1) }
            parameter = parameterRoutes.isEmpty ? nil : Node(parameterRoutes, depth: depth + 1)
        }
    }

    /// A pattern matching a whole path: where it ends, its literal count and its parameter values.
    private struct Match {
        let node: Node
        let specificity: Int
        let values: [String]
    }

    private let root: Node

    /// The handlers of each pattern without parameters, by its path written `/a/b` (the root is
    /// `/`). A request path already written that way finds such a route with one lookup: that
    /// pattern is then the only most specific match, so the walk would choose the same handler.
    private let literalPaths: [String: [String: Endpoint]]

    /// Every route as (method, pattern), in the order added: for docs and the contract test.
    public let routeTable: [(method: String, pattern: String)]

    /// Freezes `routes`: routes added to it later are not seen.
    public init(_ routes: Routes) {
        root = Node(routes.routes.enumerated().map { (order: $0.offset, route: $0.element) }, depth: 0)
        var literalPaths: [String: [String: Endpoint]] = [:]
        Self.collectLiteralPaths(below: root, path: "", into: &literalPaths)
        self.literalPaths = literalPaths
        routeTable = routes.routes.map { ($0.method, $0.pattern) }
    }

    private static func collectLiteralPaths(below node: Node, path: String, into table: inout [String: [String: Endpoint]]) {
        if !node.endpoints.isEmpty { table[path.isEmpty ? "/" : path] = node.endpoints }
        for (segment, child) in node.literals {
            collectLiteralPaths(below: child, path: path + "/" + segment, into: &table)
        }
    }

    /// Dispatches a request: the matching handler, else 405 (path known, method not) or 404.
    /// When several patterns match a path, the most specific (most literal segments) wins, so
    /// `/articles/top` is not also `/articles/:id`; the methods allowed are those of the most
    /// specific patterns.
    public func respond(to request: Request, context: Context) throws -> Response {
        let method = request.method == "HEAD" ? "GET" : request.method
        if let endpoint = literalPaths[request.path]?[method] {
            return try Self.call(endpoint, values: [], request, context)
        }
        let (best, chosen) = lookUp(method, request.path)
        if let (match, endpoint) = chosen {
            return try Self.call(endpoint, values: match.values, request, context)
        }
        if best.isEmpty { throw HTTPError(HTTPMessage.noRoute, ["path": .verbatim(request.path)]) }
        var allowed = Set(best.flatMap(\.node.endpoints.keys))
        if allowed.contains("GET") { allowed.insert("HEAD") }
        var response = HTTPError(HTTPMessage.methodNotAllowed, ["method": .verbatim(request.method)]).response(for: request)
        response.headers.set("Allow", allowed.sorted().joined(separator: ", "))
        return response
    }

    /// The bulkhead the route `request` reaches always runs on (`Routes.add(on:)`), if any: where
    /// the server moves it before running anything. GET and HEAD are never looked up.
    public func bulkhead(for request: Request) -> BulkheadName? {
        let method = request.method
        guard method != "GET", method != "HEAD" else { return nil }
        if let endpoint = literalPaths[request.path]?[method] { return endpoint.bulkhead }
        return lookUp(method, request.path).chosen?.endpoint.bulkhead
    }

    /// The most specific patterns matching `path`, and among them the first added for `method`.
    private func lookUp(_ method: String, _ path: String) -> (best: [Match], chosen: (match: Match, endpoint: Endpoint)?) {
        var best: [Match] = []
        var values: [String] = []
        Self.collect(root, Self.split(path), depth: 0, literals: 0, values: &values, into: &best)
        var chosen: (match: Match, endpoint: Endpoint)?
        for match in best {
            guard let endpoint = match.node.endpoints[method] else { continue }
            if chosen.map({ endpoint.order < $0.endpoint.order }) ?? true { chosen = (match, endpoint) }
        }
        return (best, chosen)
    }

    /// The methods the most specific patterns matching `path` answer (HEAD beside GET), sorted;
    /// empty when no pattern matches. What a CORS preflight may be told; the route is reported
    /// to `context` (for the metrics) as if the request had reached it.
    public func allowedMethods(for path: String, reportingTo context: Context) -> [String] {
        var byMethod: [String: Endpoint]
        if let literal = literalPaths[path] {
            byMethod = literal
        } else {
            var best: [Match] = []
            var values: [String] = []
            Self.collect(root, Self.split(path), depth: 0, literals: 0, values: &values, into: &best)
            byMethod = [:]
            for match in best { byMethod.merge(match.node.endpoints) { $0.order < $1.order ? $0 : $1 } }
        }
        if let first = byMethod.values.min(by: { $0.order < $1.order }) { context.matchedRoute?.set(first.route) }
        var methods = Set(byMethod.keys)
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }

    /// Hands the request to `endpoint` with its parameters (`values`, in path order), and reports
    /// the route to whoever asked in the context.
    private static func call(_ endpoint: Endpoint, values: [String], _ request: Request, _ context: Context) throws -> Response {
        context.matchedRoute?.set(endpoint.route)
        if endpoint.parameterNames.isEmpty && request.parameters.isEmpty { return try endpoint.responder(request, context) }
        var request = request
        var parameters: [String: String] = Dictionary(minimumCapacity: endpoint.parameterNames.count)
        for (name, value) in zip(endpoint.parameterNames, values) { parameters[name] = value }
        request.parameters = parameters
        return try endpoint.responder(request, context)
    }

    /// Adds to `best` every pattern below `node` that matches the rest of `parts`, keeping only the
    /// most specific; literal children are tried before the parameter child.
    private static func collect(_ node: Node, _ parts: [String], depth: Int, literals: Int,
                                values: inout [String], into best: inout [Match]) {
        guard depth < parts.count else {
            guard !node.endpoints.isEmpty else { return }
            if let first = best.first, first.specificity > literals { return }
            if let first = best.first, first.specificity < literals { best.removeAll() }
            best.append(Match(node: node, specificity: literals, values: values))
            return
        }
        let part = parts[depth]
        if let next = node.literals[part] {
            collect(next, parts, depth: depth + 1, literals: literals + 1, values: &values, into: &best)
        }
        if let next = node.parameter {
            values.append(part)
            collect(next, parts, depth: depth + 1, literals: literals, values: &values, into: &best)
            values.removeLast()
        }
    }

    /// The non-empty segments between slashes, found in the UTF-8 bytes: splitting on a
    /// `Character` would break the whole path into graphemes first.
    static func split(_ path: String) -> [String] {
        var path = path
        return path.withUTF8 { bytes in
            var segments: [String] = []
            segments.reserveCapacity(8)
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if start < index { segments.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) }
                start = index + 1
            }
            return segments
        }
    }
}

/// Routes under one prefix with shared middleware: `api.get("/cart", use: show)`.
public struct RouteGroup {
    let routes: Routes
    let prefix: String
    let middleware: [any Middleware]

    /// A nested group: the prefixes join and the middleware add up.
    public func group(_ prefix: String, middleware: [any Middleware] = []) -> RouteGroup {
        RouteGroup(routes: routes, prefix: self.prefix + prefix, middleware: self.middleware + middleware)
    }

    /// `bulkhead`: where the route always runs (see `Routes.add`).
    @discardableResult
    public func on(_ method: HTTPMethod, _ path: String, on bulkhead: BulkheadName? = nil, use handler: @escaping Responder) -> RouteGroup {
        routes.add(method, prefix + path, middleware: middleware, on: bulkhead, use: handler)
        return self
    }

    @discardableResult
    public func get(_ path: String, use handler: @escaping Responder) -> RouteGroup { on(.get, path, use: handler) }
    @discardableResult
    public func post(_ path: String, on bulkhead: BulkheadName? = nil, use handler: @escaping Responder) -> RouteGroup {
        on(.post, path, on: bulkhead, use: handler)
    }
    @discardableResult
    public func patch(_ path: String, on bulkhead: BulkheadName? = nil, use handler: @escaping Responder) -> RouteGroup {
        on(.patch, path, on: bulkhead, use: handler)
    }
    @discardableResult
    public func put(_ path: String, on bulkhead: BulkheadName? = nil, use handler: @escaping Responder) -> RouteGroup {
        on(.put, path, on: bulkhead, use: handler)
    }
    @discardableResult
    public func delete(_ path: String, on bulkhead: BulkheadName? = nil, use handler: @escaping Responder) -> RouteGroup {
        on(.delete, path, on: bulkhead, use: handler)
    }
}
