import Foundation

/// The source of "now" for every rule that depends on time; tests inject a fixed or manual one.
public struct Clock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    public var now: Date { read() }

    /// Whole seconds since 1970, as stored in the database.
    public var unixNow: Int64 { Int64(read().timeIntervalSince1970.rounded(.down)) }

    public static let system = Clock { Date() }

    public static func fixed(_ date: Date) -> Clock { Clock { date } }
}

/// A clock tests move by hand.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_796_025_600)) {
        current = start
    }

    public var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }

    public var clock: Clock { Clock { [self] in now } }
}
