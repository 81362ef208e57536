import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The connections that are still receiving a request, each with the moment it must be complete.
///
/// libmicrohttpd's connection timeout counts only silence, so a client sending one byte every few
/// seconds would hold a connection forever. Here the clock starts when a connection opens and again
/// when each response is done, and stops once the whole request (headers and body) has reached the
/// handler; a handler's own work is not timed. An idle keep-alive connection is therefore closed
/// too, once it has waited the request timeout for its next request.
///
/// A connection from a trusted proxy (`ServerConnection.fromTrustedProxy`) is the exception: its
/// clock stops with each response and starts again when the next request line arrives. The
/// balancer keeps such connections in a pool and closes the idle ones itself; were this server to
/// close one after a fixed idle time, a request the balancer sent on it at that instant would be
/// lost (its 502, never retried for a POST). A request that trickles in is still cut off.
///
/// Each deadline is an atomic in the connection's own `ServerConnection`, so starting and stopping
/// the clock per request takes no lock; the lock guards only the set of open connections, which
/// changes as they open and close and which the watchdog walks.
final class RequestDeadlines: Sendable {
    private let connections = Mutex<[ObjectIdentifier: ServerConnection]>([:])
    private let timeoutNanoseconds: UInt64

    init(timeoutSeconds: Int) {
        timeoutNanoseconds = UInt64(max(1, timeoutSeconds)) * 1_000_000_000
    }

    /// A connection was accepted: its first request must arrive within the timeout.
    func opened(_ connection: ServerConnection) {
        guard connection.socket >= 0 else { return }
        connection.deadline.store(MonotonicClock.now() + timeoutNanoseconds, ordering: .relaxed)
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
    }

    /// libmicrohttpd is about to close the socket: forget it first, under the lock the watchdog
    /// holds while shutting sockets down, so a descriptor is never touched after it is released.
    func closed(_ connection: ServerConnection) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// The whole request has arrived (or is being answered early): stop its clock.
    func requestReceived(_ connection: ServerConnection) {
        connection.deadline.store(ServerConnection.noDeadline, ordering: .relaxed)
    }

    /// A response is done: the next request on this keep-alive connection starts its clock, now
    /// (a trusted proxy's connection: when its request line arrives, `requestLineRead`).
    func responseFinished(_ connection: ServerConnection) {
        let deadline = connection.fromTrustedProxy ? ServerConnection.noDeadline : MonotonicClock.now() + timeoutNanoseconds
        connection.deadline.store(deadline, ordering: .relaxed)
    }

    /// A request line has arrived: on a trusted proxy's connection, whose clock stopped while it
    /// was idle, the rest of the request must now arrive within the timeout. (Any other
    /// connection's clock has been running since its last response or its opening.)
    func requestLineRead(_ connection: ServerConnection) {
        guard connection.fromTrustedProxy else { return }
        connection.deadline.store(MonotonicClock.now() + timeoutNanoseconds, ordering: .relaxed)
    }

    /// Connections open and timed now: for tests.
    var trackedConnections: Int { connections.withLock { $0.count } }

    /// Shuts down every connection past its deadline: its worker thread then reads end of file and
    /// closes it. `shutdown` (not `close`) leaves the descriptor libmicrohttpd's to release. A
    /// deadline is cleared by exchange, so a connection whose clock was stopped meanwhile is spared.
    func shutDownOverdue() {
        let now = MonotonicClock.now()
        connections.withLock { connections in
            for connection in connections.values {
                let deadline = connection.deadline.load(ordering: .relaxed)
                guard deadline != ServerConnection.noDeadline, deadline <= now else { continue }
                let (cleared, _) = connection.deadline.compareExchange(expected: deadline, desired: ServerConnection.noDeadline,
                                                                       ordering: .relaxed)
                if cleared { shutdown(connection.socket, Int32(SHUT_RDWR)) }
            }
        }
    }
}
