extension Request {
    /// Whether the request came straight from this machine: the socket peer is a loopback address
    /// (127.0.0.0/8, `::1`) and no proxy forwarded it (no `Forwarded`, `X-Forwarded-*` or
    /// `X-Real-IP` field). A proxy on the same host makes every client a loopback peer, so the
    /// fields it adds, whoever wrote them, rule the request out.
    public var isDirectFromLoopback: Bool {
        guard let address = IPAddress.bytes(remoteAddress),
              address.count == 4 ? address[0] == 127 : address == IPAddress.loopbackV6 else { return false }
        return !headers.contains { field in
            let name = field.name.lowercased()
            return name == "forwarded" || name == "x-real-ip" || name.hasPrefix("x-forwarded-")
        }
    }
}

extension IPAddress {
    /// `::1`.
    static let loopbackV6: [UInt8] = Array(repeating: 0, count: 15) + [1]
}

/// Hides the routes under a path prefix from every request that is not direct from loopback
/// (`Request.isDirectFromLoopback`): to those they are 404 `no_route` whatever the method, as if
/// they did not exist (so no 401 or 405 tells them apart). Outside CORS, so no preflight does either.
public struct LoopbackOnlyMiddleware: Middleware {
    private let prefix: String

    /// `prefix`: a path such as `/api/v1/dev`; it and every path below it are guarded.
    public init(prefix: String) {
        self.prefix = prefix
    }

    public func respond(to request: Request, context: Context, next: Responder) throws -> Response {
        if request.path == prefix || request.path.hasPrefix(prefix + "/"), !request.isDirectFromLoopback {
            throw HTTPError(HTTPMessage.noRoute, ["path": .verbatim(request.path)])
        }
        return try next(request, context)
    }
}
