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

/// Whether the calling thread serves a request that may still be moved, and where it is: a
/// request may move only while it has written nothing, because moving it runs it again from the
/// start.
///
/// On one of the HTTP server's request threads, any wait moves the request to its bulkhead. On a
/// bulkhead's thread, a wait of another kind moves it on (a payment start that first waited for a
/// pooled connection on the `database` bulkhead calls the provider from the `payments` one), except
/// a wait for the database, which is short and bounded and is waited where the request is, so a
/// request never goes back and forth.
///
/// Thread-local values (POSIX keys) rather than parameters: the places that wait (a pool's
/// semaphore, a provider's socket) are deep inside the shop's services, which know nothing of HTTP.
public enum RequestThread {
    private enum State: Int {
        case mayOffload = 1
        case wrote = 2
    }

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        let created = pthread_key_create(&key, nil)
        precondition(created == 0, "no thread-local key left for RequestThread")
        return key
    }

    private static let stateKey = makeKey()
    /// The bulkhead a thread works for (a retained `Home`), set once when the thread starts; none
    /// on a request thread.
    private static let homeKey = makeKey()

    private final class Home {
        let name: BulkheadName
        init(_ name: BulkheadName) { self.name = name }
    }

    private static var state: State? {
        get { pthread_getspecific(stateKey).flatMap { State(rawValue: Int(bitPattern: $0)) } }
        set { pthread_setspecific(stateKey, newValue.flatMap { UnsafeRawPointer(bitPattern: $0.rawValue) }) }
    }

    /// The bulkhead the calling thread works for, if any.
    public static var bulkhead: BulkheadName? {
        pthread_getspecific(homeKey).map { Unmanaged<Home>.fromOpaque($0).takeUnretainedValue().name }
    }

    /// Called once by a bulkhead's thread as it starts: the thread works for `bulkhead` for good.
    public static func work(for bulkhead: BulkheadName) {
        pthread_setspecific(homeKey, Unmanaged.passRetained(Home(bulkhead)).toOpaque())
    }

    /// Marks the calling thread as serving a request that may still be offloaded, until `end`.
    public static func begin() {
        state = .mayOffload
    }

    /// The request is answered (or may no longer move).
    public static func end() {
        state = nil
    }

    /// True while the request served here has not begun a write.
    public static var mayOffload: Bool {
        state == .mayOffload
    }

    /// A write transaction begins: running the request again would repeat it, so from here on it
    /// stays where it is (and waits there if it must).
    public static func noteWrite() {
        if state == .mayOffload { state = .wrote }
    }

    /// About to wait for `bulkhead`'s kind of work: where the request may still move there (see
    /// the type's rules), throws `OffloadRequest`; anywhere else, returns and the caller waits.
    public static func offload(to bulkhead: BulkheadName) throws {
        guard state == .mayOffload else { return }
        if let home = self.bulkhead, home == bulkhead || bulkhead == .database { return }
        throw OffloadRequest(bulkhead: bulkhead)
    }
}
