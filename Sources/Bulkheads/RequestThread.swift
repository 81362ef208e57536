#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Names one bulkhead: a bounded executor for one kind of slow work.
public struct BulkheadName: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Outbound calls to payment providers.
    public static let payments = BulkheadName("payments")
    /// Password hashing (Argon2id).
    public static let hashing = BulkheadName("hashing")
    /// Waits for a pooled database connection.
    public static let database = BulkheadName("database")
}

/// Thrown on a request thread where the request would wait for something slow: the server catches
/// it, suspends the connection and runs the whole request again on the named bulkhead, so the
/// request thread goes on serving its other connections.
public struct OffloadRequest: Error, Sendable, Equatable {
    public let bulkhead: BulkheadName

    public init(bulkhead: BulkheadName) {
        self.bulkhead = bulkhead
    }
}

/// Whether the calling thread is one of the HTTP server's request threads, and whether the request
/// it serves may still be moved elsewhere: only while it has written nothing, because moving it
/// runs it again from the start.
///
/// A thread-local value (a POSIX key) rather than a parameter: the places that wait (a pool's
/// semaphore, a provider's socket) are deep inside the shop's services, which know nothing of HTTP.
public enum RequestThread {
    private enum State: Int {
        case mayOffload = 1
        case wrote = 2
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key, nil)
        precondition(created == 0, "no thread-local key left for RequestThread")
        return key
    }()

    private static var state: State? {
        get { pthread_getspecific(key).flatMap { State(rawValue: Int(bitPattern: $0)) } }
        set { pthread_setspecific(key, newValue.flatMap { UnsafeRawPointer(bitPattern: $0.rawValue) }) }
    }

    /// Marks the calling thread as serving a request that may still be offloaded, until `end`.
    public static func begin() {
        state = .mayOffload
    }

    /// The request is answered: the thread is no longer a request's.
    public static func end() {
        state = nil
    }

    /// True on a request thread whose request has not begun a write.
    public static var mayOffload: Bool {
        state == .mayOffload
    }

    /// A write transaction begins: running the request again would repeat it, so from here on it
    /// stays where it is (and waits there if it must).
    public static func noteWrite() {
        if state == .mayOffload { state = .wrote }
    }

    /// About to wait for `bulkhead`'s kind of work: on a request thread that may still offload,
    /// throws `OffloadRequest` so the request moves there; anywhere else, returns and the caller waits.
    public static func offload(to bulkhead: BulkheadName) throws {
        if state == .mayOffload { throw OffloadRequest(bulkhead: bulkhead) }
    }
}
