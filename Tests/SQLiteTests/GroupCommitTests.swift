import Foundation
import ThreadTestSupport
import SQL
import SQLite
import Testing

/// Group commit: concurrent writers share a COMMIT (and its fsync), each still all-or-nothing and
/// durable when `write` returns.
@Suite("DatabasePool group commit")
struct GroupCommitTests {
    struct Refused: Error {}

    private func createTable(_ pool: DatabasePool) throws {
        try pool.write { db in
            try db.execute(script: "CREATE TABLE items (id INTEGER PRIMARY KEY, worker INTEGER NOT NULL, n INTEGER NOT NULL)")
        }
    }

    @Test func concurrentWritersShareCommitsAndEachSeesItsRowCommittedOnReturn() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            let before = pool.commitCount
            let unseen = Locked(0)
            let finished = onThreads(8) { worker in
                for n in 0..<40 {
                    do {
                        _ = try pool.write { db in
                            try db.run("INSERT INTO items (worker, n) VALUES (\(worker), \(n))")
                        }
                        // Returned: committed, so another connection (a reader) sees it.
                        let seen = try pool.read { db in
                            try db.scalarInt("SELECT COUNT(*) FROM items WHERE worker = \(worker) AND n = \(n)")
                        }
                        if seen != 1 { unseen.withLock { $0 += 1 } }
                    } catch {
                        unseen.withLock { $0 += 1 }
                    }
                }
            }
            #expect(finished)
            #expect(unseen.current == 0)
            #expect(try pool.read { try $0.scalarInt("SELECT COUNT(*) FROM items") } == 320)
            let commits = pool.commitCount - before
            #expect(commits >= 10 && commits < 320, "320 writes took \(commits) commits")
        }
    }

    @Test func aWriterThatThrowsInAGroupLosesOnlyItsOwnChanges() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            let outcomes = Locked<[Int: Bool]>([:])
            let finished = onThreads(8) { worker in
                for n in 0..<25 {
                    let key = worker * 100 + n
                    do {
                        try pool.write { db in
                            try db.run("INSERT INTO items (worker, n) VALUES (\(worker), \(n))")
                            if key % 3 == 0 { throw Refused() }
                        }
                        outcomes.withLock { $0[key] = true }
                    } catch {
                        outcomes.withLock { $0[key] = false }
                    }
                }
            }
            #expect(finished, "a writer was left waiting for a commit that never came")
            let stored = Set(try pool.read { db in
                try db.query("SELECT worker, n FROM items").map { try $0.int("worker") * 100 + $0.int("n") }
            })
            let succeeded = Set(outcomes.current.filter(\.value).map(\.key))
            #expect(stored == succeeded)
            #expect(succeeded.allSatisfy { $0 % 3 != 0 })
            #expect(succeeded.count == 8 * 25 - outcomes.current.keys.filter { $0 % 3 == 0 }.count)
        }
    }

    @Test func aLoneWriterCommitsAtOnce() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            let before = pool.commitCount
            _ = try pool.write { db in try db.run("INSERT INTO items (worker, n) VALUES (\(1), \(1))") }
            #expect(pool.commitCount == before + 1)
            try pool.withWriter { db in #expect(!db.isInTransaction) }
        }
    }

    @Test func writerConnectionUsesOutsideWritesNeverFindAGroupOpen() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            let inTransaction = Locked(0)
            let finished = onThreads(6) { worker in
                for n in 0..<30 {
                    if worker == 0 {
                        if (try? pool.withWriter({ $0.isInTransaction })) != false { inTransaction.withLock { $0 += 1 } }
                    } else {
                        _ = try? pool.write { db in try db.run("INSERT INTO items (worker, n) VALUES (\(worker), \(n))") }
                    }
                }
            }
            #expect(finished)
            #expect(inTransaction.current == 0)
            #expect(try pool.read { try $0.scalarInt("SELECT COUNT(*) FROM items") } == 150)
        }
    }

    // `PRAGMA synchronous` below: 1 = NORMAL, 2 = FULL.

    @Test func aProcessCrashWriteCommitsWithoutWaitingForTheDiskAndThenFullReturns() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            let relaxed = try pool.write(durability: .processCrash) { db in
                try db.run("INSERT INTO items (worker, n) VALUES (\(1), \(1))")
                return try db.scalarInt("PRAGMA synchronous")
            }
            #expect(relaxed == 1)
            // Committed: another connection sees it.
            let count = try pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM items") }
            #expect(count == 1)
            let plain = try pool.write { db in try db.scalarInt("PRAGMA synchronous") }
            let full = try pool.write(durability: .powerLoss) { db in try db.scalarInt("PRAGMA synchronous") }
            #expect(plain == 2 && full == 2)
            _ = try pool.write(durability: .processCrash) { db in try db.scalarInt("PRAGMA synchronous") }
            // Outside writes (pragmas, checkpoints, migrations) find the configured level again.
            let outside = try pool.withWriter { connection in try connection.scalarInt("PRAGMA synchronous") }
            #expect(outside == 2)
        }
    }

    @Test func aFullWriterNeverJoinsARelaxedGroup() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            let inside = DispatchSemaphore(value: 0)
            let fullSaw = Locked<Int64?>(nil)
            let finished = onThreads(2) { worker in
                if worker == 0 {
                    _ = try? pool.write(durability: .processCrash) { db in
                        try db.run("INSERT INTO items (worker, n) VALUES (\(0), \(0))")
                        inside.signal()
                        // Hold the writer until the full writer has queued for it.
                        Thread.sleep(forTimeInterval: 0.2)
                    }
                } else {
                    inside.wait()
                    let level = try? pool.write { db in
                        try db.run("INSERT INTO items (worker, n) VALUES (\(1), \(0))")
                        return try db.scalarInt("PRAGMA synchronous")
                    }
                    fullSaw.withLock { $0 = level ?? nil }
                }
            }
            #expect(finished)
            #expect(fullSaw.current == 2, "the full writer committed at synchronous=\(String(describing: fullSaw.current))")
            #expect(try pool.read { try $0.scalarInt("SELECT COUNT(*) FROM items") } == 2)
        }
    }

    @Test func aRelaxedWriterJoinsAFullGroupAndCommitsDurably() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            let inside = DispatchSemaphore(value: 0)
            let relaxedSaw = Locked<Int64?>(nil)
            let before = pool.commitCount
            let finished = onThreads(2) { worker in
                if worker == 0 {
                    _ = try? pool.write { db in
                        try db.run("INSERT INTO items (worker, n) VALUES (\(0), \(0))")
                        inside.signal()
                        Thread.sleep(forTimeInterval: 0.2)
                    }
                } else {
                    inside.wait()
                    let level = try? pool.write(durability: .processCrash) { db in
                        try db.run("INSERT INTO items (worker, n) VALUES (\(1), \(0))")
                        return try db.scalarInt("PRAGMA synchronous")
                    }
                    relaxedSaw.withLock { $0 = level ?? nil }
                }
            }
            #expect(finished)
            #expect(relaxedSaw.current == 2)
            #expect(pool.commitCount == before + 1, "the two writers shared one commit")
        }
    }
}
