import Bulkheads

/// Handles a request: a route handler, or a chain of middleware ending in one.
public typealias Responder = @Sendable (Request, Context) throws -> Response

/// `handler` run on `bulkhead` rather than on a request thread: for work that always waits
/// (hashing, a provider's answer). Called on a request thread it throws `OffloadRequest`, and the
/// server runs the whole request again there (middleware included); a route declared with
/// `Routes.add(on:)` is moved before anything runs instead, and uses this only as a fallback.
public func offloading(to bulkhead: BulkheadName, _ handler: @escaping Responder) -> Responder {
    { request, context in
        try RequestThread.offload(to: bulkhead)
        return try handler(request, context)
    }
}

/// Wraps a responder: sees the request before it and the response (or error) after it.
public protocol Middleware: Sendable {
    func respond(to request: Request, context: Context, next: Responder) throws -> Response
}

extension Array where Element == any Middleware {
    /// The responder with these middleware around it, the first one outermost.
    public func wrapping(_ responder: @escaping Responder) -> Responder {
        reversed().reduce(responder) { next, middleware in
            { request, context in try middleware.respond(to: request, context: context, next: next) }
        }
    }
}

/// Echoes a sane client `X-Request-Id` or makes one, and reports each finished request.
public struct RequestIDMiddleware: Middleware {
    public typealias Completion = @Sendable (Request, Response, _ requestID: String, _ milliseconds: Double) -> Void
    private let makeID: @Sendable () -> String
    private let completion: Completion?

    public init(makeID: @escaping @Sendable () -> String, completion: Completion? = nil) {
        self.makeID = makeID
        self.completion = completion
    }

    public func respond(to request: Request, context: Context, next: Responder) throws -> Response {
        let started = MonotonicClock.now()
        var context = context
        if let id = request.headers["X-Request-Id"], Self.isAcceptable(id) {
            context.requestID = id
        } else {
            context.requestID = makeID()
        }
        var response: Response
        do {
            response = try next(request, context)
        } catch let error as HTTPError {
            response = error.response(for: request)
        }
        response.headers.set("X-Request-Id", context.requestID)
        completion?(request, response, context.requestID, MonotonicClock.milliseconds(since: started))
        return response
    }

    /// 1..128 visible ASCII characters: anything else is replaced, never echoed into logs.
    static func isAcceptable(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f }
    }
}

/// Turns every thrown error into the API's error shape, in the language the request's
/// `Accept-Language` prefers; errors it cannot map are 500 `internal`.
public struct ErrorMiddleware: Middleware {
    public typealias Mapper = @Sendable (any Error) -> HTTPError?
    public typealias Reporter = @Sendable (any Error, Request, Context) -> Void
    private let map: Mapper
    private let report: Reporter

    public init(map: @escaping Mapper, report: @escaping Reporter) {
        self.map = map
        self.report = report
    }

    public func respond(to request: Request, context: Context, next: Responder) throws -> Response {
        do {
            return try next(request, context)
        } catch let error as HTTPError {
            return error.response(for: request)
        } catch let offload as OffloadRequest {
            // not an error: the server runs the request again on that bulkhead
            throw offload
        } catch {
            if let mapped = map(error) { return mapped.response(for: request) }
            report(error, request, context)
            return HTTPError.internalError.response(for: request)
        }
    }
}
