import Foundation
import SQLite
import Testing

@Suite("Statements and SQLite errors")
struct StatementTests {
    private static let schema = """
        CREATE TABLE skus (
            id INTEGER PRIMARY KEY,
            code TEXT NOT NULL UNIQUE,
            stock INTEGER NOT NULL CHECK (stock >= 0)
        )
        """

    @Test func theSameSQLPreparedTwiceIsTheSameCachedStatement() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(Self.schema)
                let sql = "SELECT id FROM skus WHERE code = ?"
                let first = try db.prepare(sql)
                let second = try db.prepare(sql)
                #expect(first === second)
                #expect(try db.prepare("SELECT code FROM skus WHERE id = ?") !== first)
            }
        }
    }

    @Test func aCachedStatementRunsAgainWithNewBindings() throws {
        try withTemporaryPool { pool in
            let codes = try pool.write { db -> [String] in
                try db.execute(Self.schema)
                for (index, code) in ["A", "B", "C"].enumerated() {
                    #expect(try db.legacyRun("INSERT INTO skus (code, stock) VALUES (?, ?)", code, index) == 1)
                }
                return try ["A", "C", "Z"].map { code in
                    try db.legacyQueryOne("SELECT code FROM skus WHERE code = ?", code)?.string("code") ?? "-"
                }
            }
            #expect(codes == ["A", "C", "-"])
        }
    }

    @Test func theWrongNumberOfBindingsThrowsAndLeavesTheStatementUsable() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(Self.schema)
                let sql = "INSERT INTO skus (code, stock) VALUES (?, ?)"
                let tooFew = #expect(throws: SQLiteError.self) { try db.legacyRun(sql, "A") }
                #expect(tooFew?.code == 25) // SQLITE_RANGE
                #expect(tooFew?.sql == sql)
                #expect(throws: SQLiteError.self) { try db.legacyRun(sql, "A", 1, 2) }
                #expect(throws: SQLiteError.self) { try db.legacyQuery("SELECT * FROM skus WHERE id = ?") }
                #expect(try db.legacyRun(sql, "A", 1) == 1)
                #expect(try db.legacyScalarInt("SELECT COUNT(*) FROM skus") == 1)
            }
        }
    }

    @Test func aUniqueViolationIsReportedWithItsSQL() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(Self.schema)
                let sql = "INSERT INTO skus (code, stock) VALUES (?, ?)"
                try db.legacyRun(sql, "ROSE-11", 3)
                let error = #expect(throws: SQLiteError.self) { try db.legacyRun(sql, "ROSE-11", 4) }
                #expect(error?.isUniqueViolation == true)
                #expect(error?.isConstraintViolation == true)
                #expect(error?.isCheckViolation == false)
                #expect(error?.isBusy == false)
                #expect(error?.code == 19) // SQLITE_CONSTRAINT
                #expect(error?.sql == sql)
                #expect(error?.description.contains(sql) == true)
                #expect(error?.message.contains("UNIQUE") == true)
                // The failed statement was reset: the same cached statement works again.
                #expect(try db.legacyRun(sql, "ROSE-12", 4) == 1)
            }
        }
    }

    @Test func aPrimaryKeyViolationCountsAsUnique() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(Self.schema)
                try db.legacyRun("INSERT INTO skus (id, code, stock) VALUES (1, 'A', 0)")
                let error = #expect(throws: SQLiteError.self) {
                    try db.legacyRun("INSERT INTO skus (id, code, stock) VALUES (1, 'B', 0)")
                }
                #expect(error?.isUniqueViolation == true)
            }
        }
    }

    @Test func aCheckViolationIsReportedWithItsSQL() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(Self.schema)
                try db.legacyRun("INSERT INTO skus (code, stock) VALUES ('A', 1)")
                let sql = "UPDATE skus SET stock = stock - ? WHERE code = ?"
                let error = #expect(throws: SQLiteError.self) { try db.legacyRun(sql, 2, "A") }
                #expect(error?.isCheckViolation == true)
                #expect(error?.isConstraintViolation == true)
                #expect(error?.isUniqueViolation == false)
                #expect(error?.sql == sql)
                #expect(try db.legacyScalarInt("SELECT stock FROM skus WHERE code = 'A'") == 1)
            }
        }
    }

    @Test func aConstraintViolationThroughExecuteIsClassifiedToo() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(Self.schema)
                let sql = "INSERT INTO skus (code, stock) VALUES ('A', 1); INSERT INTO skus (code, stock) VALUES ('A', 2)"
                let error = #expect(throws: SQLiteError.self) { try db.execute(sql) }
                #expect(error?.isUniqueViolation == true)
                #expect(error?.sql == sql)
                let check = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO skus (code, stock) VALUES ('Z', -1)") }
                #expect(check?.isCheckViolation == true)
            }
        }
    }

    @Test func badSQLFailsToPrepareWithTheSQLInTheError() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                let sql = "SELEC 1"
                let error = #expect(throws: SQLiteError.self) { try db.legacyQuery(sql) }
                #expect(error?.sql == sql)
                #expect(error?.code == 1) // SQLITE_ERROR
            }
        }
    }

    @Test func lastInsertRowIDAndChangesAreReported() throws {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(Self.schema)
                try db.legacyRun("INSERT INTO skus (code, stock) VALUES ('A', 1)")
                let id = db.lastInsertRowID
                #expect(try db.legacyScalarInt("SELECT id FROM skus WHERE code = 'A'") == id)
                try db.legacyRun("INSERT INTO skus (code, stock) VALUES ('B', 1)")
                #expect(try db.legacyRun("UPDATE skus SET stock = 5") == 2)
                #expect(try db.legacyRun("DELETE FROM skus WHERE code = 'nope'") == 0)
            }
        }
    }
}
