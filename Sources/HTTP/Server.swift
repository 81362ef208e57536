import Bulkheads
import CMicroHTTPD
import Foundation
import Synchronization

/// Where the server moves requests that must wait for one kind of slow work, and what it answers
/// when that bulkhead is full (a 503 whose `Retry-After` is the bulkhead's).
public struct OffloadTarget: Sendable {
    public let bulkhead: Bulkhead
    public let rejection: HTTPError

    public init(bulkhead: Bulkhead, rejection: HTTPError) {
        self.bulkhead = bulkhead
        var rejection = rejection
        rejection.retryAfter = rejection.retryAfter ?? bulkhead.retryAfterSeconds
        self.rejection = rejection
    }
}

/// Listening address, thread pool and the limits every connection lives under.
public struct ServerOptions: Sendable {
    public var host: String
    /// 0 picks a free port; read the chosen one from `Server.port` after `start()`.
    public var port: UInt16
    public var threads: Int
    public var maxConnections: Int
    public var maxConnectionsPerIP: Int
    public var maxBodyBytes: Int
    public var idleTimeoutSeconds: Int
    /// The most a request (headers and body) may take to arrive, however steadily it trickles in.
    public var requestTimeoutSeconds: Int
    /// Peers whose `X-Forwarded-For` names the client (`Request.clientAddress`). Their connections
    /// are balancers' pooled ones: never closed for being idle between requests (neither
    /// `idleTimeoutSeconds` nor the request timeout's wait for a next request applies), only when
    /// a request, once its request line has arrived, takes longer than `requestTimeoutSeconds`.
    public var trustedProxies: TrustedProxies
    /// Body limits other than `maxBodyBytes` for a few routes, by `"METHOD /exact/path"` (picture
    /// uploads take 5 MiB while JSON bodies stay at 1 MiB).
    public var bodyLimits: [String: Int] = [:]

    public init(host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = 4, maxConnections: Int = 1024,
                maxConnectionsPerIP: Int = 64, maxBodyBytes: Int = 1_048_576, idleTimeoutSeconds: Int = 30,
                requestTimeoutSeconds: Int = 10, trustedProxies: TrustedProxies = .none) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxConnections = maxConnections
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.trustedProxies = trustedProxies
    }

    /// The body limit of a request to `path` with `method`.
    public func maxBodyBytes(method: String, path: String) -> Int {
        bodyLimits.isEmpty ? maxBodyBytes : bodyLimits["\(method) \(path)"] ?? maxBodyBytes
    }
}

/// Why the server could not start.
public struct ServerError: Error, CustomStringConvertible {
    public let description: String
}

/// An HTTP/1.1 server over libmicrohttpd: a thread pool, keep-alive, a body limit, connection
/// limits, an idle timeout and a request timeout (`RequestDeadlines`). Handlers run on its request
/// threads, each of which serves many connections; a handler that would wait for something slow
/// throws `OffloadRequest`, and the server suspends that connection (libmicrohttpd's
/// suspend/resume) and runs the request again on the bulkhead named, resuming the connection with
/// its answer, while the request thread goes on with its other connections.
///
/// The daemon handle lives in `lifecycle`: it is started and quiesced under that lock, and the one
/// thread that moves it to `.stopped` stops it, outside the lock (stopping joins the worker
/// threads, which must not wait on it). libmicrohttpd's threads never touch the handle; they reach
/// this object through the callbacks' context pointer. So every field is Sendable, checked.
public final class Server: Sendable {
    public let options: ServerOptions
    let responder: Responder
    /// The bulkheads requests may be moved to, by name.
    let offloadTargets: [BulkheadName: OffloadTarget]
    /// Where a request always runs (a route declared on a bulkhead), asked before anything runs.
    let placement: (@Sendable (Request) -> BulkheadName?)?
    let deadlines: RequestDeadlines
    private let lifecycle = Mutex(Lifecycle())
    private let watchdogQueue = DispatchQueue(label: "http.request-deadlines")
    /// Entered when a request begins and left when it completes; `stop` waits on it.
    private let inFlight = DispatchGroup()
    private let activeRequests = Atomic<Int>(0)

    private struct Lifecycle {
        var phase = Phase.notStarted
        /// Closes connections whose request is overdue; runs on its own queue from `start()` to `stop()`.
        var watchdog: (any DispatchSourceTimer)?
        var port: UInt16 = 0
    }

    private enum Phase {
        case notStarted
        case running(OpaquePointer)
        /// No longer accepting; in-flight requests are finishing.
        case stopping(OpaquePointer)
        case stopped
    }

    /// The port actually bound (differs from `options.port` when that was 0).
    public var port: UInt16 { lifecycle.withLock { $0.port } }

    /// `responder` answers every request; errors it throws are rendered in the error shape. A
    /// request that asks to be offloaded to a bulkhead not in `offload` runs where it is.
    /// `placement` names the bulkhead a request always runs on (`Router.bulkhead(for:)`): such a
    /// request moves there before `responder` sees it, instead of running up to the handler, being
    /// sent there and running again.
    public init(options: ServerOptions, offload: [BulkheadName: OffloadTarget] = [:],
                placement: (@Sendable (Request) -> BulkheadName?)? = nil, responder: @escaping Responder) {
        self.options = options
        self.offloadTargets = offload
        self.placement = placement
        self.responder = responder
        self.deadlines = RequestDeadlines(timeoutSeconds: options.requestTimeoutSeconds)
    }

    deinit {
        if let daemon = finish() { MHD_stop_daemon(daemon) }
        watchdogQueue.sync {}
    }

    /// Binds and starts the worker threads.
    public func start() throws {
        try lifecycle.withLock { lifecycle in
            let context = Unmanaged.passUnretained(self).toOpaque()
            switch lifecycle.phase {
            case .notStarted, .stopped: break
            case .running, .stopping: preconditionFailure("server already started")
            }
            // poll(), not epoll: MHD_quiesce_daemon (our drain on stop) and a worker's epoll loop
            // race to remove the listen socket from the epoll set, and the loser aborts the process
            // ("Failed to remove listen FD from epoll set", daemon.c; an open libmicrohttpd defect,
            // hit by a CI run of the stop-while-in-flight test). The poll() side signals workers
            // through the ITC instead and has no such race.
            let flags = MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            let daemon = shop_mhd_start(UInt32(flags), options.host, options.port,
                                        serverAccessHandler, context,
                                        serverRequestCompleted, context,
                                        serverRequestLineRead, context,
                                        serverConnectionNotified, context,
                                        UInt32(max(1, options.threads)),
                                        UInt32(max(1, options.maxConnections)),
                                        UInt32(max(0, options.maxConnectionsPerIP)),
                                        UInt32(max(0, options.idleTimeoutSeconds)),
                                        32 * 1024)
            guard let daemon else {
                throw ServerError(description: "cannot listen on \(options.host):\(options.port) (address in use or not an IPv4 address?)")
            }
            lifecycle.phase = .running(daemon)
            lifecycle.port = shop_mhd_bound_port(daemon)
            lifecycle.watchdog = Self.makeWatchdog(options.requestTimeoutSeconds, deadlines, on: watchdogQueue)
        }
    }

    /// Checks deadlines a few times per timeout (at least once a second), so an overdue request
    /// is cut off within about a quarter of the timeout past it.
    private static func makeWatchdog(_ timeoutSeconds: Int, _ deadlines: RequestDeadlines,
                                     on queue: DispatchQueue) -> any DispatchSourceTimer {
        let interval = min(1.0, max(0.05, Double(timeoutSeconds) / 4))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [deadlines] in deadlines.shutDownOverdue() }
        timer.resume()
        return timer
    }

    /// Stops accepting, lets in-flight requests finish (up to `grace` seconds), then closes everything.
    public func stop(grace: TimeInterval = 30) {
        let quiesced = lifecycle.withLock { lifecycle -> Bool in
            guard case .running(let daemon) = lifecycle.phase else { return false }
            let listener = MHD_quiesce_daemon(daemon)
            if listener >= 0 { close(listener) }
            lifecycle.phase = .stopping(daemon)
            return true
        }
        guard quiesced else { return }
        _ = inFlight.wait(wallTimeout: .now() + grace)
        if let daemon = finish() { MHD_stop_daemon(daemon) }
        // Waits out a deadline sweep already running.
        watchdogQueue.sync {}
    }

    /// Moves to `.stopped` and cancels the watchdog; the daemon, if one was still up, is the
    /// caller's to stop (only one caller ever gets it).
    private func finish() -> OpaquePointer? {
        lifecycle.withLock { lifecycle -> OpaquePointer? in
            lifecycle.watchdog?.cancel()
            lifecycle.watchdog = nil
            defer { lifecycle.phase = .stopped }
            switch lifecycle.phase {
            case .running(let daemon), .stopping(let daemon): return daemon
            case .notStarted, .stopped: return nil
            }
        }
    }

    /// Requests begun and not yet completed.
    public var requestsInFlight: Int {
        activeRequests.load(ordering: .relaxed)
    }

    func requestBegan() {
        activeRequests.add(1, ordering: .relaxed)
        inFlight.enter()
    }

    func requestEnded() {
        activeRequests.subtract(1, ordering: .relaxed)
        inFlight.leave()
    }

    /// What a request thread makes of a request: its answer, or where it must go instead.
    enum Outcome {
        case answered(Response)
        case offload(OffloadTarget)
    }

    /// Where `request` goes before anything runs, if its route always runs on a bulkhead this
    /// server has.
    func placed(_ request: Request) -> OffloadTarget? {
        guard let placement, let name = placement(request) else { return nil }
        return offloadTargets[name]
    }

    /// Runs the responder where the request may still move (a request thread, or a bulkhead's
    /// thread until the request needs another bulkhead); never throws, whatever the handler did.
    func answerMovable(_ request: Request) -> Outcome {
        RequestThread.begin()
        defer { RequestThread.end() }
        do {
            return .answered(try responder(request, Context()))
        } catch let offload as OffloadRequest {
            guard let target = offloadTargets[offload.bulkhead] else {
                // no such bulkhead here: the request waits where it is, as it would without one
                RequestThread.end()
                return .answered(answer(request))
            }
            return .offload(target)
        } catch let error as HTTPError {
            return .answered(error.response(for: request))
        } catch {
            return .answered(HTTPError.internalError.response(for: request))
        }
    }

    /// Runs the responder where it cannot move: it waits where it is; never throws.
    func answer(_ request: Request) -> Response {
        do {
            return try responder(request, Context())
        } catch let error as HTTPError {
            return error.response(for: request)
        } catch {
            return HTTPError.internalError.response(for: request)
        }
    }
}

/// A suspended connection, handed to the bulkhead thread that resumes it: libmicrohttpd lets any
/// thread call `MHD_resume_connection`, and the connection stays valid while suspended.
struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer
    let pending: PendingRequest
}

/// Per-request state kept by libmicrohttpd between calls of the access handler.
final class PendingRequest {
    /// The raw path holds a percent-encoded NUL or other control character, which
    /// libmicrohttpd's decoding would hide (it cuts the path at a `%00`).
    let pathHasControlCharacter: Bool
    /// The access handler has seen this request's headers (and counted it in flight).
    var began = false
    var body: [UInt8] = []
    /// Body bytes seen, kept or not.
    var received = 0
    var tooLarge = false
    /// This request's body limit (`ServerOptions.maxBodyBytes(method:path:)`), set with its headers.
    var maxBodyBytes = 0
    /// The answer a bulkhead made while the connection was suspended; queued when it resumes.
    /// Written by the bulkhead's thread before `MHD_resume_connection`, read by the request thread
    /// after libmicrohttpd resumed it (the resume's lock orders the two).
    var offloadedResponse: Response?

    init(pathHasControlCharacter: Bool = false) {
        self.pathHasControlCharacter = pathHasControlCharacter
    }

    /// True when the path part of `target` (up to `?`) has a control character, encoded (`%00`,
    /// `%0a`, `%7F`) or raw.
    static func pathHasControlCharacter(_ target: UnsafePointer<CChar>) -> Bool {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        let bytes = UnsafeRawPointer(target).assumingMemoryBound(to: UInt8.self)
        var index = 0
        while bytes[index] != 0 && bytes[index] != UInt8(ascii: "?") {
            var byte = bytes[index]
            if byte == UInt8(ascii: "%"), bytes[index + 1] != 0, let high = hex(bytes[index + 1]),
               bytes[index + 2] != 0, let low = hex(bytes[index + 2]) {
                byte = high << 4 | low
                index += 2
            }
            if byte < 0x20 || byte == 0x7F { return true }
            index += 1
        }
        return false
    }
}
