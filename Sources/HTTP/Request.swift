/// One HTTP request as the handlers see it: immutable, body already read.
public struct Request: Sendable {
    public let method: String
    /// The percent-decoded path without the query string, e.g. `/api/v1/products/7`.
    public let path: String
    /// Query arguments, percent-decoded; the first value wins when a name repeats.
    public let query: [String: String]
    public let headers: Headers
    public let body: [UInt8]
    /// The socket peer's IP address as text (a reverse proxy, when there is one).
    public let remoteAddress: String
    /// The client's IP address: `remoteAddress`, or what a trusted proxy reported in
    /// `X-Forwarded-For` (see `TrustedProxies`). Per-client limits key on this.
    public let clientAddress: String
    /// Values of the `:name` segments of the matched route.
    public internal(set) var parameters: [String: String] = [:]

    public init(method: String, path: String, query: [String: String] = [:], headers: Headers = Headers(),
                body: [UInt8] = [], remoteAddress: String = "127.0.0.1", clientAddress: String? = nil) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.clientAddress = clientAddress ?? remoteAddress
    }

    /// A route parameter, or a 404 when absent (a route that names it always has it).
    public func parameter(_ name: String) throws -> String {
        guard let value = parameters[name] else { throw HTTPError.notFound() }
        return value
    }
}

/// What travels beside a request through the middleware to the handler: the request id, and
/// whatever an application's middleware stores for the handlers after it, under typed keys.
public struct Context: Sendable {
    /// The `X-Request-Id` of this request (echoed or generated).
    public var requestID: String
    /// Where the router reports the route it matched (set by `MetricsMiddleware`).
    var matchedRoute: MatchedRoute?
    private var values: [ObjectIdentifier: any Sendable] = [:]

    public init(requestID: String = "") {
        self.requestID = requestID
    }

    /// The value stored under `key`, nil when none is.
    public subscript<Key: ContextKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

/// Names one value a middleware may put in the `Context`, and its type.
public protocol ContextKey {
    associatedtype Value: Sendable
}
