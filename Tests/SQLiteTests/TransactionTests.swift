import Foundation
import ThreadTestSupport
import SQL
import SQLite
import Testing

@Suite("DatabasePool transactions")
struct TransactionTests {
    struct Boom: Error {}

    private func createTable(_ pool: DatabasePool) throws {
        try pool.write { db in
            try db.execute(script: "CREATE TABLE items (id INTEGER PRIMARY KEY, worker INTEGER NOT NULL, n INTEGER NOT NULL)")
        }
    }

    private func count(_ pool: DatabasePool) throws -> Int64? {
        try pool.read { try $0.scalarInt("SELECT COUNT(*) FROM items") }
    }

    @Test func aWriteThatThrowsAfterInsertingLeavesNothingBehind() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            #expect(throws: Boom.self) {
                try pool.write { db in
                    try db.run("INSERT INTO items (worker, n) VALUES (\(1), \(1))")
                    #expect(try db.scalarInt("SELECT COUNT(*) FROM items") == 1)
                    throw Boom()
                }
            }
            #expect(try count(pool) == 0)
            // The writer is usable again and not left inside the failed transaction.
            try pool.write { db in
                #expect((db as? Connection)?.isInTransaction == true)
                try db.run("INSERT INTO items (worker, n) VALUES (\(2), \(2))")
            }
            #expect(try count(pool) == 1)
            try pool.withWriter { db in #expect(!db.isInTransaction) }
        }
    }

    @Test func aWriteThatFailsInSQLRollsBackItsEarlierStatements() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(script: "CREATE TABLE stock (sku INTEGER PRIMARY KEY, units INTEGER NOT NULL CHECK (units >= 0))")
                try db.run("INSERT INTO stock (sku, units) VALUES (1, 5), (2, 1)")
            }
            #expect(throws: SQLiteError.self) {
                try pool.write { db in
                    try db.run("UPDATE stock SET units = units - 1 WHERE sku = 1")
                    try db.run("UPDATE stock SET units = units - 2 WHERE sku = 2")
                }
            }
            let units = try pool.read { db in try db.query("SELECT units FROM stock ORDER BY sku").map { try $0.int("units") } }
            #expect(units == [5, 1])
        }
    }

    @Test func fourThreadsWritingConcurrentlyNeverSeeBusyAndAllRowsLand() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            let writers = 4, perWriter = 200
            let errors = Locked<[String]>([])
            let writersDone = Locked(0)
            let readsDone = Locked(0)
            // Two readers run beside the writers: they must never fail and never see the count go down.
            let finished = onThreads(writers + 2) { index in
                if index < writers {
                    for n in 0..<perWriter {
                        do {
                            _ = try pool.write { db in try db.run("INSERT INTO items (worker, n) VALUES (\(index), \(n))") }
                        } catch {
                            errors.withLock { $0.append("writer \(index): \(error)") }
                        }
                    }
                    writersDone.withLock { $0 += 1 }
                } else {
                    var last: Int64 = 0
                    while writersDone.current < writers {
                        do {
                            let seen = try pool.read { try $0.scalarInt("SELECT COUNT(*) FROM items") } ?? -1
                            if seen < last { errors.withLock { $0.append("reader saw \(seen) after \(last)") } }
                            last = seen
                            readsDone.withLock { $0 += 1 }
                        } catch {
                            errors.withLock { $0.append("reader: \(error)") }
                        }
                    }
                }
            }
            #expect(finished)
            #expect(errors.current == [])
            #expect(readsDone.current > 0)
            #expect(try count(pool) == Int64(writers * perWriter))
            let perWorker = try pool.read { db in
                try db.query("SELECT worker, COUNT(DISTINCT n) AS c FROM items GROUP BY worker ORDER BY worker")
                    .map { try $0.int("c") }
            }
            #expect(perWorker == Array(repeating: perWriter, count: writers))
        }
    }

    @Test func readersSeeTheLastCommittedStateWhileAWriteIsInProgress() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            _ = try pool.write { db in try db.run("INSERT INTO items (worker, n) VALUES (0, 0)") }

            let inserted = DispatchSemaphore(value: 0)
            let readDone = DispatchSemaphore(value: 0)
            let writerSaw = Locked<Int64?>(nil)
            let writeError = Locked<String?>(nil)
            let writeFinished = onNewThread {
                do {
                    try pool.write { db in
                        try db.run("INSERT INTO items (worker, n) VALUES (1, 1)")
                        writerSaw.withLock { $0 = try? db.scalarInt("SELECT COUNT(*) FROM items") }
                        inserted.signal()
                        _ = readDone.waits()
                    }
                } catch {
                    writeError.withLock { $0 = "\(error)" }
                }
            }
            try #require(inserted.waits())
            let during: Int64?
            do {
                defer { readDone.signal() }
                during = try count(pool)
            }
            try #require(writeFinished.waits())
            #expect(writeError.current == nil)
            #expect(writerSaw.current == 2)
            #expect(during == 1)
            #expect(try count(pool) == 2)
        }
    }

    @Test func aReadSeesOneConsistentSnapshotWhileAnotherWriteCommits() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            _ = try pool.write { db in try db.run("INSERT INTO items (worker, n) VALUES (0, 0)") }
            let writeError = Locked<String?>(nil)
            let (first, second, committed) = try pool.read { db -> (Int64?, Int64?, Bool) in
                let first = try db.scalarInt("SELECT COUNT(*) FROM items")
                let done = onNewThread {
                    do {
                        _ = try pool.write { db in try db.run("INSERT INTO items (worker, n) VALUES (1, 1)") }
                    } catch {
                        writeError.withLock { $0 = "\(error)" }
                    }
                }
                let committed = done.waits()
                let second = try db.scalarInt("SELECT COUNT(*) FROM items")
                return (first, second, committed)
            }
            #expect(committed)
            #expect(writeError.current == nil)
            #expect(first == 1)
            #expect(second == 1)
            #expect(try count(pool) == 2)
        }
    }

    @Test func readEachGivesEveryStatementItsOwnSnapshotOnAReader() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            _ = try pool.write { db in try db.run("INSERT INTO items (worker, n) VALUES (0, 0)") }
            let (first, second, committed) = try pool.readEach { db -> (Int64?, Int64?, Bool) in
                let first = try db.scalarInt("SELECT COUNT(*) FROM items")
                let done = onNewThread {
                    _ = try? pool.write { db in try db.run("INSERT INTO items (worker, n) VALUES (1, 1)") }
                }
                let committed = done.waits()
                let second = try db.scalarInt("SELECT COUNT(*) FROM items")
                return (first, second, committed)
            }
            #expect(committed)
            #expect(first == 1)
            // Unlike `read`, the second statement sees the write committed in between.
            #expect(second == 2)
            #expect(throws: SQLiteError.self) {
                try pool.readEach { db in try db.run("INSERT INTO items (worker, n) VALUES (2, 2)") }
            }
        }
    }

    @Test func aReadCannotWrite() throws {
        try withTemporaryPool { pool in
            try createTable(pool)
            #expect(throws: SQLiteError.self) {
                try pool.read { db in try db.run("INSERT INTO items (worker, n) VALUES (0, 0)") }
            }
            #expect(try count(pool) == 0)
        }
    }

    @Test func theWriterAndReadersRunWithForeignKeysWALAndFullSync() throws {
        try withTemporaryPool { pool in
            func pragmas(_ db: any SQLConnection) throws -> (foreignKeys: Int64?, journal: SQLValue?, synchronous: Int64?, busy: Int64?) {
                (try db.scalarInt("PRAGMA foreign_keys"),
                 try db.queryOne("PRAGMA journal_mode")?[0],
                 try db.scalarInt("PRAGMA synchronous"),
                 try db.scalarInt("PRAGMA busy_timeout"))
            }
            let writer = try pool.withWriter(pragmas)
            #expect(writer.foreignKeys == 1)
            #expect(writer.journal == .text("wal"))
            #expect(writer.synchronous == 2)
            #expect(writer.busy == 5_000)
            let reader = try pool.read(pragmas)
            #expect(reader.foreignKeys == 1)
            #expect(reader.journal == .text("wal"))
            #expect(reader.synchronous == 2)
            #expect(reader.busy == 5_000)
        }
    }

    @Test func foreignKeysAreEnforced() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(script: """
                    CREATE TABLE parents (id INTEGER PRIMARY KEY);
                    CREATE TABLE children (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parents(id));
                    """)
            }
            let error = #expect(throws: SQLiteError.self) {
                _ = try pool.write { db in try db.run("INSERT INTO children (parent_id) VALUES (\(42))") }
            }
            #expect(error?.isConstraintViolation == true)
            #expect(error?.isUniqueViolation == false)
            #expect(error?.isCheckViolation == false)
        }
    }

    @Test func anInMemoryPoolSharesTheWriterForReads() throws {
        let pool = try DatabasePool(path: ":memory:")
        try pool.write { db in
            try db.execute(script: "CREATE TABLE t (x INTEGER)")
            try db.run("INSERT INTO t (x) VALUES (\(7))")
        }
        #expect(try pool.read { try $0.scalarInt("SELECT x FROM t") } == 7)
        #expect(try pool.read { try $0.scalarInt("PRAGMA foreign_keys") } == 1)
    }
}
