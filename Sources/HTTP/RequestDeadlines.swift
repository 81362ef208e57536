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
final class RequestDeadlines: Sendable {
    private struct Tracked {
        let socket: Int32
        /// Nil while the handler works on a request or its response is being sent.
        var deadline: UInt64?
    }

    /// Keyed by the `MHD_Connection` address, unique while the connection lives.
    private let connections = Mutex<[Int: Tracked]>([:])
    private let timeoutNanoseconds: UInt64

    init(timeoutSeconds: Int) {
        timeoutNanoseconds = UInt64(max(1, timeoutSeconds)) * 1_000_000_000
    }

    /// A connection was accepted: its first request must arrive within the timeout.
    func opened(_ connection: OpaquePointer, socket: Int32) {
        guard socket >= 0 else { return }
        let deadline = MonotonicClock.now() + timeoutNanoseconds
        connections.withLock { $0[Int(bitPattern: connection)] = Tracked(socket: socket, deadline: deadline) }
    }

    /// libmicrohttpd is about to close the socket: forget it first, under the lock the watchdog
    /// holds while shutting sockets down, so a descriptor is never touched after it is released.
    func closed(_ connection: OpaquePointer) {
        _ = connections.withLock { $0.removeValue(forKey: Int(bitPattern: connection)) }
    }

    /// The whole request has arrived (or is being answered early): stop its clock.
    func requestReceived(_ connection: OpaquePointer) {
        connections.withLock { $0[Int(bitPattern: connection)]?.deadline = nil }
    }

    /// A response is done: the next request on this keep-alive connection starts its clock.
    /// Only a tracked connection is re-armed (this may come just before its close).
    func responseFinished(_ connection: OpaquePointer) {
        let deadline = MonotonicClock.now() + timeoutNanoseconds
        connections.withLock { $0[Int(bitPattern: connection)]?.deadline = deadline }
    }

    /// Shuts down every connection past its deadline: its worker thread then reads end of file and
    /// closes it. `shutdown` (not `close`) leaves the descriptor libmicrohttpd's to release.
    func shutDownOverdue() {
        let now = MonotonicClock.now()
        connections.withLock { connections in
            for (key, tracked) in connections {
                guard let deadline = tracked.deadline, deadline <= now else { continue }
                shutdown(tracked.socket, Int32(SHUT_RDWR))
                connections[key]?.deadline = nil
            }
        }
    }
}
