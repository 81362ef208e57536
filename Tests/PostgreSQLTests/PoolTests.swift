import Foundation
import ThreadTestSupport
import PostgreSQL
import SQL
import Testing

@Suite("PostgreSQL pool", .enabled(if: hasTestDatabase, "set SHOP_TEST_POSTGRES_URL (make postgres)"), .serialized)
struct PoolTests {
    private struct Refused: Error {}

    @Test func aWriteThatThrowsLeavesNothingBehind() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8)") }
            #expect(throws: Refused.self) {
                try pool.write { db in
                    try db.run("INSERT INTO r VALUES (\(1))")
                    throw Refused()
                }
            }
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM r") } == 0)
            _ = try pool.write { db in try db.run("INSERT INTO r VALUES (\(2))") }
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 2)
        }
    }

    @Test func aProcessCrashWriteTurnsSynchronousCommitOffForItsTransactionOnly() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8)") }
            let relaxed = try pool.write(durability: .processCrash) { db in
                try db.run("INSERT INTO r VALUES (\(1))")
                return try db.scalar("SHOW synchronous_commit", as: String.self)
            }
            #expect(relaxed == "off")
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM r") } == 1)
            // SET LOCAL ended with that transaction: the next one on any connection is durable again.
            for _ in 0..<3 {
                #expect(try pool.write { try $0.scalar("SHOW synchronous_commit", as: String.self) } == "on")
            }
        }
    }

    @Test func aReadRunsInOneReadOnlySnapshotAndRefusesAWrite() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8)") }
            let levels = try pool.read { db in
                (try db.scalar("SHOW transaction_isolation", as: String.self),
                 try db.scalar("SHOW transaction_read_only", as: String.self))
            }
            #expect(levels.0 == "repeatable read")
            #expect(levels.1 == "on")
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.read { db in try db.run("INSERT INTO r VALUES (\(1))") }
            }
            #expect(error?.sqlstate == "25006")
            #expect(try pool.write { try $0.scalar("SHOW transaction_isolation", as: String.self) } == "read committed")
            #expect(try pool.write(isolation: .serializable) { try $0.scalar("SHOW transaction_isolation", as: String.self) }
                == "serializable")
        }
    }

    @Test func aDeadlockIsRetriedAndBothWritesLand() throws {
        try withPool(size: 2) { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE a (id int8 PRIMARY KEY, n int8); INSERT INTO a VALUES (1, 0), (2, 0)") }
            let attempts = Locked(0)
            let errors = Locked<[String]>([])
            let holding = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
            let finished = onThreads(2) { me in
                let (first, second) = me == 0 ? (Int64(1), Int64(2)) : (Int64(2), Int64(1))
                var mine = 0
                do {
                    try pool.write { db in
                        mine += 1
                        attempts.withLock { $0 += 1 }
                        try db.run("UPDATE a SET n = n + 1 WHERE id = \(first)")
                        if mine == 1 {
                            // Each holds its first row before either asks for its second.
                            holding[me].signal()
                            _ = holding[1 - me].wait(timeout: .now() + 10)
                        }
                        try db.run("UPDATE a SET n = n + 1 WHERE id = \(second)")
                    }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            #expect(finished)
            #expect(errors.current == [])
            #expect(attempts.current == 3)
            #expect(try pool.read { try $0.query("SELECT n FROM a ORDER BY id").map { try $0.int("n") } } == [2, 2])
        }
    }

    @Test func aWriteWhoseFailedStatementWasCaughtIsNotReportedAsCommitted() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE u (k text PRIMARY KEY)") }
            let (first, second) = ("one", "two")
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.write { db in
                    try db.run("INSERT INTO u VALUES (\(first))")
                    _ = try? db.run("INSERT INTO u VALUES (\(first))")
                }
            }
            #expect(error?.sqlstate == "25P02")
            _ = try pool.write { db in try db.run("INSERT INTO u VALUES (\(second))") }
            #expect(try pool.read { try $0.query("SELECT k FROM u").map { try $0.string("k") } } == [second])
        }
    }

    @Test func anAdvisoryLockIsReleasedEvenWhenTheBodyLeftAFailedTransaction() throws {
        try withPool(size: 1) { pool in
            let key: Int64 = 42
            _ = try? pool.withAdvisoryLock(key: key) { db in
                try db.execute(script: "BEGIN")
                try db.execute(script: "SELECT nonsense")
            }
            let held = try pool.withConnection { db in
                try db.scalarInt("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
            }
            #expect(held == 0)
        }
    }

    @Test func aUniqueViolationIsSurfacedAtOnceNotRetried() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE u (k text PRIMARY KEY); INSERT INTO u VALUES ('taken')") }
            var attempts = 0
            let key = "taken"
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.write { db in
                    attempts += 1
                    try db.run("INSERT INTO u VALUES (\(key))")
                }
            }
            #expect(error?.kind == .uniqueViolation)
            #expect(attempts == 1)
        }
    }

    @Test func aSerializationFailureIsRetriedUpToTheLimitThenSurfaced() throws {
        try withSchema { url in
            let pool = try Pool(url: url, size: 1, maxRetries: 2)
            var attempts = 0
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.write(isolation: .serializable) { db in
                    attempts += 1
                    try db.run("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$")
                }
            }
            #expect(error?.kind == .transient)
            #expect(attempts == 3)
        }
    }

    @Test func aTerminatedBackendIsReplacedByANewConnection() throws {
        try withSchema { url in
            let pool = try Pool(url: url, size: 1)
            let killer = try Connection(url: url)
            func terminateThePoolsBackend() throws {
                let pid = try #require(try pool.read { try $0.scalarInt("SELECT pg_backend_pid()") })
                #expect(try killer.scalar("SELECT pg_terminate_backend(\(pid)::int4, \(5000))", as: Bool.self) == true)
            }

            // Found broken at BEGIN: nothing ran yet, so the pool reconnects and goes on.
            try terminateThePoolsBackend()
            #expect(try pool.read { try $0.scalarInt("SELECT 1") } == 1)

            // Broken under a statement outside a transaction: the error says so, and the next
            // use of the pool gets a working connection.
            try terminateThePoolsBackend()
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.withConnection { try $0.scalarInt("SELECT 1") }
            }
            #expect(error?.kind == .connectionLost)
            #expect(try pool.write { try $0.scalarInt("SELECT 2") } == 2)
        }
    }

    @Test func aPoolOfTwoServesEightThreads() throws {
        try withPool(size: 2) { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE hits (n int8 NOT NULL)") }
            let backends = Locked<Set<Int64>>([])
            let errors = Locked<[String]>([])
            let finished = onThreads(8) { thread in
                for round in 0..<20 {
                    do {
                        let pid = try pool.write { db in
                            try db.run("INSERT INTO hits VALUES (\(thread * 100 + round))")
                            return try db.scalarInt("SELECT pg_backend_pid()")
                        }
                        if let pid { backends.withLock { _ = $0.insert(pid) } }
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(finished)
            #expect(errors.current == [])
            #expect(backends.current.count <= 2)
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM hits") } == 160)
        }
    }

    @Test func anAdvisoryLockIsHeldForTheBodyAndReleasedAfter() throws {
        try withPool(size: 2) { pool in
            let key: Int64 = 0x5ee0_f10e
            let lockHeld: SQL = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = \(key & 0xffff_ffff)"
            let heldInside = try pool.withAdvisoryLock(key: key) { _ in
                try pool.read { try $0.scalarInt(lockHeld) }
            }
            #expect(heldInside == 1)
            #expect(try pool.read { try $0.scalarInt(lockHeld) } == 0)
        }
    }

    @Test func theDialectIsPostgreSQL() throws {
        try withPool(size: 1) { pool in
            let database: any Database = pool
            #expect(database.dialect == .postgresql)
        }
    }
}

/// Needs no server: a connection refused (nothing listens on port 1) is the engine-neutral
/// `.connectionLost`, which the API answers with 503 `database_unavailable`.
@Suite("PostgreSQL pool: server unreachable")
struct UnreachablePoolTests {
    @Test func aRefusedConnectionIsConnectionLost() {
        let error = #expect(throws: PostgreSQLError.self) {
            _ = try Pool(url: "postgresql://postgres@127.0.0.1:1/shop_test?connect_timeout=2", size: 1)
        }
        #expect(error?.kind == .connectionLost)
        #expect(error?.sqlstate == nil)
    }
}

@Suite("PostgreSQL pool: a full pool", .enabled(if: hasTestDatabase, "set SHOP_TEST_POSTGRES_URL (make postgres)"))
struct FullPoolTests {
    @Test func aTransactionThatFindsNoFreeConnectionGivesUpWithPoolExhausted() throws {
        try withSchema { url in
            let pool = try Pool(url: url, size: 1, acquireTimeout: 0.2)
            let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
            Thread {
                _ = try? pool.read { _ in holding.signal(); release.wait() }
            }.start()
            holding.wait()
            let error = #expect(throws: PoolExhaustedError.self) { try pool.read { _ in 1 } }
            #expect(error?.kind == .poolExhausted)
            release.signal()
            // Once the connection is back, the pool serves again.
            var answer: Int64?
            for _ in 0..<50 where answer == nil {
                answer = try? pool.read { try $0.scalarInt("SELECT 7") }
            }
            #expect(answer == 7)
            let stats = try #require(pool.poolStatistics.first)
            #expect(stats.name == "primary" && stats.size == 1)
            #expect(stats.timeouts >= 1 && stats.waits >= 1 && stats.inUse == 0)
        }
    }
}
