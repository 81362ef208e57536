import Foundation
import PostgreSQL
import SQL
import Testing

/// A transaction's `BEGIN`, its advisory locks and its `runLater` writes are held and sent in one
/// pipeline with the next statement that needs an answer (or the `COMMIT`): fewer round trips,
/// the same outcomes.
@Suite("PostgreSQL held statements", .enabled(if: hasTestDatabase, "set SHOP_TEST_POSTGRES_URL (make postgres)"), .serialized)
struct HeldStatementTests {
    @Test func aHeldWriteLandsWithTheCommitAndTheNextStatementSeesIt() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8 PRIMARY KEY)") }
            let seen = try pool.write { db in
                try db.runLater("INSERT INTO r VALUES (\(1))")
                try db.runLater("INSERT INTO r VALUES (\(2))")
                return try db.scalarInt("SELECT count(*) FROM r")
            }
            #expect(seen == 2)
            try pool.write { db in try db.runLater("INSERT INTO r VALUES (\(3))") }
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 6)
        }
    }

    @Test func aHeldWriteThatFailsIsThrownByTheNextStatementAndRollsEverythingBack() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8 PRIMARY KEY)") }
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.write { db in
                    try db.run("INSERT INTO r VALUES (\(1))")
                    try db.runLater("INSERT INTO r VALUES (\(1))")
                    try db.runLater("INSERT INTO r VALUES (\(2))")
                    _ = try db.scalarInt("SELECT count(*) FROM r")
                    Issue.record("the statement after a failed held write ran")
                }
            }
            #expect(error?.kind == .uniqueViolation)
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM r") } == 0)
            // the connection is clean for the next transaction
            _ = try pool.write { db in try db.run("INSERT INTO r VALUES (\(5))") }
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 5)
        }
    }

    @Test func aHeldWriteThatFailsAtTheCommitIsThrownNotCommitted() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8 PRIMARY KEY CHECK (n > 0))") }
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.write { db in
                    try db.run("INSERT INTO r VALUES (\(1))")
                    try db.runLater("INSERT INTO r VALUES (\(-1))")
                }
            }
            #expect(error?.kind == .checkViolation)
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM r") } == 0)
        }
    }

    @Test func aLastQuerySentWithTheCommitAnswersAndEndsTheTransaction() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8 PRIMARY KEY)") }
            let rows = try pool.write { db in
                try db.runLater("INSERT INTO r VALUES (\(1))")
                return try db.queryEnding("INSERT INTO r VALUES (\(2)) RETURNING n")
            }
            #expect(try rows.map { try $0.decode("n", as: Int64.self) } == [2])
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 3)
            // the connection is clean for the next transaction
            _ = try pool.write { db in try db.run("INSERT INTO r VALUES (\(5))") }
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 8)
        }
    }

    @Test func aLastQueryThatFailsRollsBackWhatWasHeldWithIt() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8 PRIMARY KEY)") }
            try pool.write { db in try db.run("INSERT INTO r VALUES (\(1))") }
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.write { db in
                    try db.runLater("INSERT INTO r VALUES (\(2))")
                    _ = try db.queryEnding("INSERT INTO r VALUES (\(1)) RETURNING n")
                }
            }
            #expect(error?.kind == .uniqueViolation)
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 1)
            _ = try pool.write { db in try db.run("INSERT INTO r VALUES (\(5))") }
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 6)
        }
    }

    @Test func queriesSentTogetherAnswerEachOneInOrderAndAFailureStopsTheRest() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8 PRIMARY KEY CHECK (n > 0))") }
            let answers = try pool.write { db in
                try db.runLater("INSERT INTO r VALUES (\(1))")
                return try db.queries(["SELECT count(*) AS c FROM r", "INSERT INTO r VALUES (\(2)) RETURNING n",
                                       "UPDATE r SET n = n + 10 WHERE n = \(7) RETURNING n", "SELECT n FROM r ORDER BY n"])
            }
            #expect(try answers.map { try $0.map { try $0.decode(at: 0, as: Int64.self) } } == [[1], [2], [], [1, 2]])
            // the second query fails: the third never runs, the error is thrown, nothing is kept
            let error = #expect(throws: PostgreSQLError.self) {
                try pool.write { db in
                    _ = try db.queries(["INSERT INTO r VALUES (\(3)) RETURNING n", "INSERT INTO r VALUES (\(-1)) RETURNING n",
                                        "INSERT INTO r VALUES (\(4)) RETURNING n"])
                    Issue.record("a failed query's batch answered")
                }
            }
            #expect(error?.kind == .checkViolation)
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 3)
            #expect(try pool.write { db in try db.queries([]) }.isEmpty)
        }
    }

    @Test func aReadOnlyTransactionRefusesAHeldWrite() throws {
        try withPool { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8)") }
            #expect(throws: PostgreSQLError.self) {
                try pool.read { db in try db.runLater("INSERT INTO r VALUES (\(1))") }
            }
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM r") } == 0)
        }
    }

    @Test func theAdvisoryLockIsTakenBeforeTheStatementItTravelsWith() throws {
        try withPool { pool in
            let held = try pool.write { db in
                try db.serialize(on: "cart:7")
                return try db.scalarInt("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
            }
            #expect(held == 1)
            // released with the transaction
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()") } == 0)
        }
    }

    /// A write transaction sent whole in one pipeline (its held statements and its last query with
    /// the commit) runs as the pipeline's implicit transaction, without BEGIN and COMMIT: its relaxed
    /// durability, its advisory locks and its all-or-nothing end are those of the transaction still.
    @Test func aWholeTransactionInOnePipelineKeepsItsDurabilityLocksAndAtomicity() throws {
        try withPool(size: 1) { pool in
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8 PRIMARY KEY)") }
            let relaxed = try pool.write(durability: .processCrash) { db in
                try db.serialize(on: "cart:7")
                try db.runLater("INSERT INTO r VALUES (\(1))")
                return try db.queryEnding("""
                    SELECT current_setting('synchronous_commit') AS setting, current_setting('transaction_isolation') AS isolation,
                           (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS locks,
                           (SELECT count(*) FROM r) AS seen
                    """)
            }
            let row = try #require(relaxed.first)
            #expect(try row.decode("setting", as: String.self) == "off")
            #expect(try row.decode("isolation", as: String.self) == "read committed")
            #expect(try row.decode("locks", as: Int64.self) == 1)
            #expect(try row.decode("seen", as: Int64.self) == 1)
            // on the same connection: the setting and the lock ended with that transaction
            let after = try pool.write { db in
                try db.queryEnding("""
                    SELECT current_setting('synchronous_commit') AS setting,
                           (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS locks
                    """)
            }
            #expect(try after.first?.decode("setting", as: String.self) == "on")
            #expect(try after.first?.decode("locks", as: Int64.self) == 0)
            // a failure of the last query takes the held write and the lock back with it
            #expect(throws: PostgreSQLError.self) {
                try pool.write(durability: .processCrash) { db in
                    try db.serialize(on: "cart:7")
                    try db.runLater("INSERT INTO r VALUES (\(2))")
                    _ = try db.queryEnding("INSERT INTO r VALUES (\(1)) RETURNING n")
                }
            }
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 1)
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()") } == 0)
            // a transaction of held writes alone commits them the same way
            try pool.write(durability: .processCrash) { db in try db.runLater("INSERT INTO r VALUES (\(3))") }
            #expect(try pool.read { try $0.scalarInt("SELECT sum(n) FROM r") } == 4)
        }
    }

    @Test func aTerminatedBackendFoundByTheFirstPipelineIsReplacedAndTheTransactionRuns() throws {
        try withSchema { url in
            let pool = try Pool(url: url, size: 1)
            let killer = try Connection(url: url)
            try pool.withConnection { try $0.execute(script: "CREATE TABLE r (n int8)") }
            let pid = try #require(try pool.read { try $0.scalarInt("SELECT pg_backend_pid()") })
            #expect(try killer.scalar("SELECT pg_terminate_backend(\(pid)::int4, \(5000))", as: Bool.self) == true)
            // BEGIN, the lock, a held write and the first answer all go in the pipeline that finds it broken
            let count = try pool.write { db in
                try db.serialize(on: "k")
                try db.runLater("INSERT INTO r VALUES (\(1))")
                return try db.scalarInt("SELECT count(*) FROM r")
            }
            #expect(count == 1)
            #expect(try pool.read { try $0.scalarInt("SELECT count(*) FROM r") } == 1)
        }
    }
}
