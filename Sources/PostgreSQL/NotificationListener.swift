import CLibPQ
import Foundation
import Synchronization

/// Waits for PostgreSQL notifications (`LISTEN channel`; `NOTIFY` or `pg_notify` in a committed
/// transaction sends one) on a connection of its own, on a thread of its own, and calls `wake`
/// after each batch of them and at least every `heartbeat` whether or not any came. The heartbeat
/// is what bounds staleness: whoever `wake` refreshes reads again at least that often, so a
/// notification lost with a dropped connection (or a connection that died silently) delays a
/// change by one heartbeat at most, never for good. A dropped connection is opened again (at most
/// once a second) and `LISTEN`s again; the wakes go on meanwhile.
public final class NotificationListener: Sendable {
    /// Why `wake` was called.
    public enum Wake: Sendable {
        /// At least one notification arrived on the channel.
        case notified
        /// The heartbeat passed (or the connection is down) with none.
        case heartbeat
    }

    private let url: String
    private let channel: String
    private let heartbeatMilliseconds: Int32
    private let wake: @Sendable (Wake) -> Void
    private let stopping = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private let listening = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// `channel` is an SQL identifier of letters, digits and underscores (it is written into
    /// `LISTEN`, which takes no parameter).
    public init(url: String, channel: String, heartbeatMilliseconds: Int32 = 250, wake: @escaping @Sendable (Wake) -> Void) {
        precondition(!channel.isEmpty && channel.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) },
                     "a channel is a lowercase SQL identifier")
        precondition(heartbeatMilliseconds > 0, "a heartbeat is a positive number of milliseconds")
        self.url = url
        self.channel = channel
        self.heartbeatMilliseconds = heartbeatMilliseconds
        self.wake = wake
    }

    /// Whether the connection is up and listening right now (for metrics and tests).
    public var isListening: Bool { listening.load(ordering: .relaxed) }

    /// Starts the thread (once; a second call does nothing).
    public func start() {
        guard running.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        stopping.store(false, ordering: .relaxed)
        let thread = Thread { [self] in
            loop()
            stopped.signal()
        }
        thread.name = "shop.listen.\(channel)"
        thread.start()
    }

    /// Stops the thread and waits for it: at most one heartbeat, or up to 2 s while it is stuck
    /// opening a connection to a server that does not answer (shutdown does not wait on that; the
    /// thread ends by itself once the attempt gives up).
    public func stop() {
        guard running.load(ordering: .relaxed) else { return }
        stopping.store(true, ordering: .relaxed)
        if stopped.wait(timeout: .now() + .seconds(2)) == .success {
            running.store(false, ordering: .relaxed)
        }
    }

    private func loop() {
        var connection: Connection?
        var lastAttempt: ContinuousClock.Instant?
        let clock = ContinuousClock()
        while !stopping.load(ordering: .relaxed) {
            if connection == nil, lastAttempt.map({ clock.now - $0 >= .seconds(1) }) ?? true {
                lastAttempt = clock.now
                connection = open()
                listening.store(connection != nil, ordering: .relaxed)
            }
            var reason = Wake.heartbeat
            if let open = connection {
                switch wait(on: open) {
                case .notified: reason = .notified
                case .quiet: break
                case .broken:
                    connection = nil
                    listening.store(false, ordering: .relaxed)
                }
            } else {
                usleep(UInt32(heartbeatMilliseconds) * 1000)
            }
            if stopping.load(ordering: .relaxed) { break }
            wake(reason)
        }
        listening.store(false, ordering: .relaxed)
    }

    /// A connection that listens on the channel, or nil when the server cannot be reached.
    private func open() -> Connection? {
        guard let connection = try? Connection(url: url) else { return nil }
        guard (try? connection.execute(script: "LISTEN \(channel)")) != nil else { return nil }
        return connection
    }

    private enum Outcome { case notified, quiet, broken }

    /// Waits up to a heartbeat for input on the connection and takes every notification that came.
    private func wait(on connection: Connection) -> Outcome {
        let handle = connection.handle
        // libpq may already hold notifications that arrived with an earlier result.
        if drain(handle) > 0 { return .notified }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return .broken }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, heartbeatMilliseconds)
        if ready <= 0 { return .quiet }  // timed out, or a signal interrupted the wait
        // Reads what the server sent; fails when the connection is gone (the server closed it).
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { return .broken }
        return drain(handle) > 0 ? .notified : .quiet
    }

    /// Frees the notifications libpq holds; answers how many there were.
    private func drain(_ handle: OpaquePointer) -> Int {
        var count = 0
        while let notification = PQnotifies(handle) {
            count += 1
            PQfreemem(notification)
        }
        return count
    }
}
