import Synchronization

/// What the server keeps per open connection, made when libmicrohttpd accepts it and kept in the
/// connection's socket context until it closes: what does not change from one keep-alive request
/// to the next is worked out once here, not per request.
final class ServerConnection: Sendable {
    /// The value of `deadline` while no request is being received.
    static let noDeadline: UInt64 = 0

    /// The socket, or -1 when libmicrohttpd did not report it (the connection is then not timed).
    let socket: Int32
    /// The socket peer's IP address as text.
    let peerAddress: String
    /// Whether the peer is one of `ServerOptions.trustedProxies`: a balancer that keeps this
    /// connection in its pool between requests and closes it itself when it no longer needs it.
    /// Such a connection is never closed for being idle between requests (only a request that
    /// is slow to arrive is cut off), so the balancer can never send a request on a connection
    /// the server is closing at that moment.
    let fromTrustedProxy: Bool
    /// Set once libmicrohttpd's idle timeout is lifted for this connection (a trusted proxy's).
    let idleTimeoutLifted = Atomic<Bool>(false)
    /// Monotonic nanoseconds by which the request being received must be complete, or
    /// `noDeadline` while the handler works on one or its response is being sent.
    let deadline = Atomic<UInt64>(ServerConnection.noDeadline)

    init(socket: Int32, peerAddress: String, fromTrustedProxy: Bool = false) {
        self.socket = socket
        self.peerAddress = peerAddress
        self.fromTrustedProxy = fromTrustedProxy
    }
}
