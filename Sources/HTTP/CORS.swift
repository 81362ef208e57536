/// Which other origins' pages may call this server from a browser (CORS), and what they may send
/// and read. Empty: no CORS headers at all, so browsers keep other origins out.
public struct CORSPolicy: Sendable, Equatable {
    /// Origins as browsers send them in `Origin` (`https://shop.example`, `http://127.0.0.1:3000`),
    /// lowercased; `*` among them lets any origin in.
    public let origins: Set<String>
    /// Response fields a page on another origin may read beyond the always-readable ones.
    public let exposedHeaders: [String]
    /// Request fields a preflight allows.
    public let allowedHeaders: [String]
    /// How long a browser may reuse a preflight answer.
    public let maxAgeSeconds: Int
    /// Paths under these prefixes never answer CORS, whatever `origins` says (the operators' desk).
    public let closedPrefixes: [String]

    /// Nobody from another origin.
    public static let none = CORSPolicy(origins: [])

    public static let defaultExposedHeaders = ["ETag", "Retry-After", "X-Request-Id", "Content-Language", "Allow"]
    public static let defaultAllowedHeaders = ["Authorization", "Content-Type", "Idempotency-Key", "Accept-Language",
                                               "If-None-Match", "X-Request-Id"]

    /// `origins`: `scheme://host[:port]` each, or `*` for any (written out on purpose, never implied).
    public init(origins: [String], exposedHeaders: [String] = defaultExposedHeaders,
                allowedHeaders: [String] = defaultAllowedHeaders, maxAgeSeconds: Int = 600, closedPrefixes: [String] = []) {
        self.origins = Set(origins.map { $0.lowercased() })
        self.closedPrefixes = closedPrefixes
        self.exposedHeaders = exposedHeaders
        self.allowedHeaders = allowedHeaders
        self.maxAgeSeconds = maxAgeSeconds
    }

    public var isEnabled: Bool { !origins.isEmpty }

    /// Whether `path` is under one of `closedPrefixes`.
    func isClosed(_ path: String) -> Bool {
        closedPrefixes.contains { path.hasPrefix($0) }
    }

    /// `*` was configured: every origin is answered `Access-Control-Allow-Origin: *`.
    var allowsAnyOrigin: Bool { origins.contains("*") }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, nil when it is not allowed.
    func allowOrigin(for origin: String?) -> String? {
        guard let origin, !origin.isEmpty else { return nil }
        if allowsAnyOrigin { return "*" }
        return origins.contains(origin.lowercased()) ? origin : nil
    }
}

/// Answers CORS for the policy's origins: an allowed `Origin` gets `Access-Control-Allow-Origin`
/// and the exposed headers on every answer (errors and 304s included); a preflight (`OPTIONS`
/// with `Access-Control-Request-Method`) from it is answered 204 with the methods the route
/// really has. Any other request, and any request from another origin, goes on unchanged, so a
/// disallowed origin never sees a CORS header. `Vary: Origin` is added to every answer when the
/// answer depends on the origin (a list, not `*`), so a cache never hands one origin's answer to another.
public struct CORSMiddleware: Middleware {
    private let policy: CORSPolicy
    private let router: Router

    /// `router`: where the methods of a preflight's path are looked up.
    public init(policy: CORSPolicy, router: Router) {
        self.policy = policy
        self.router = router
    }

    public func respond(to request: Request, context: Context, next: Responder) throws -> Response {
        guard policy.isEnabled, !policy.isClosed(request.path) else { return try next(request, context) }
        let allowOrigin = policy.allowOrigin(for: request.headers["Origin"])
        if let allowOrigin, request.method == "OPTIONS", request.headers["Access-Control-Request-Method"] != nil {
            let methods = router.allowedMethods(for: request.path, reportingTo: context)
            if !methods.isEmpty {
                var response = Response.empty(.noContent)
                response.headers.set("Access-Control-Allow-Origin", allowOrigin)
                response.headers.set("Access-Control-Allow-Methods", methods.joined(separator: ", "))
                response.headers.set("Access-Control-Allow-Headers", policy.allowedHeaders.joined(separator: ", "))
                response.headers.set("Access-Control-Max-Age", String(policy.maxAgeSeconds))
                addVary(to: &response)
                return response
            }
        }
        var response: Response
        do {
            response = try next(request, context)
        } catch let error as HTTPError {
            response = error.response(for: request)
        }
        if let allowOrigin {
            response.headers.set("Access-Control-Allow-Origin", allowOrigin)
            response.headers.set("Access-Control-Expose-Headers", policy.exposedHeaders.joined(separator: ", "))
        }
        addVary(to: &response)
        return response
    }

    /// Adds `Origin` to the response's `Vary` (keeping what is there, e.g. `Accept-Language`).
    private func addVary(to response: inout Response) {
        guard !policy.allowsAnyOrigin else { return }
        response.headers.addVary(["Origin"])
    }
}
