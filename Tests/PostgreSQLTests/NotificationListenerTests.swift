import Foundation
import PostgreSQL
import SQL
import Synchronization
import Testing

/// What a listener has seen, shared with its wake callback.
private final class Wakes: Sendable {
    private let counts = Mutex((notified: 0, heartbeat: 0))
    func record(_ wake: NotificationListener.Wake) {
        counts.withLock { counts in
            switch wake {
            case .notified: counts.notified += 1
            case .heartbeat: counts.heartbeat += 1
            }
        }
    }
    var notified: Int { counts.withLock { $0.notified } }
    var heartbeats: Int { counts.withLock { $0.heartbeat } }
}

/// Polls `condition` every 20 ms for up to `seconds`.
private func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}

@Suite("PostgreSQL notifications", .enabled(if: hasTestDatabase, "set SHOP_TEST_POSTGRES_URL (make postgres)"), .serialized)
struct NotificationListenerTests {
    /// A channel of this test's own: notifications are per database, and other suites run beside.
    private static func channel() -> String {
        "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
    }

    @Test func aCommittedNotifyWakesTheListenerAndARolledBackOneDoesNot() throws {
        try withSchema { url in
            let channel = Self.channel()
            let wakes = Wakes()
            let listener = NotificationListener(url: url, channel: channel, heartbeatMilliseconds: 60_000) { wakes.record($0) }
            listener.start()
            defer { listener.stop() }
            #expect(eventually(within: 5) { listener.isListening })
            // The first wake after connecting is a heartbeat-less loop turn: wait until it is idle.
            usleep(100_000)
            let sender = try Connection(url: url)
            try sender.transaction { db in _ = try db.run("SELECT pg_notify(\(channel), '')") }
            #expect(eventually(within: 2) { wakes.notified == 1 })
            // A rolled-back transaction sends nothing.
            struct Abandon: Error {}
            _ = try? sender.transaction { db -> Void in
                _ = try db.run("SELECT pg_notify(\(channel), 'x')")
                throw Abandon()
            }
            usleep(300_000)
            #expect(wakes.notified == 1)
        }
    }

    @Test func theHeartbeatWakesWithoutNotificationsAndADroppedConnectionIsOpenedAgain() throws {
        try withSchema { url in
            let channel = Self.channel()
            let wakes = Wakes()
            let listener = NotificationListener(url: url, channel: channel, heartbeatMilliseconds: 50) { wakes.record($0) }
            listener.start()
            defer { listener.stop() }
            #expect(eventually(within: 5) { listener.isListening })
            #expect(eventually(within: 2) { wakes.heartbeats >= 3 })

            // The server ends the listening session (a restart, a proxy timeout): the wakes go on,
            // and the listener is back within a couple of seconds and hears the next notification.
            let admin = try Connection(url: url)
            let ended = try admin.query("""
                SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
                WHERE query = \("LISTEN \(channel)") AND pid <> pg_backend_pid()
                """)
            #expect(ended.count == 1)
            #expect(eventually(within: 2) { !listener.isListening })
            let heartbeats = wakes.heartbeats
            #expect(eventually(within: 1) { wakes.heartbeats > heartbeats }, "the heartbeat goes on while the connection is down")
            #expect(eventually(within: 5) { listener.isListening })
            try admin.transaction { db in _ = try db.run("SELECT pg_notify(\(channel), '')") }
            #expect(eventually(within: 2) { wakes.notified >= 1 })
        }
    }
}
