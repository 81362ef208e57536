import Foundation
import Synchronization

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
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_796_025_600)) {
        current = Mutex(start)
    }

    public var now: Date {
        current.withLock { $0 }
    }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public var clock: Clock { Clock { [self] in now } }
}
