import Foundation
import SQL
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

    @discardableResult
    private func insert(_ code: String, stock: Int, _ db: Connection) throws -> Int {
        try db.run("INSERT INTO skus (code, stock) VALUES (\(code), \(stock))")
    }

    @Test func theSameSQLPreparedTwiceIsTheSameCachedStatement() throws {
        try withTemporaryPool { pool in
            try pool.writeSQLite { db in
                try db.execute(script: Self.schema)
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
            let codes = try pool.writeSQLite { db -> [String] in
                try db.execute(script: Self.schema)
                for (index, code) in ["A", "B", "C"].enumerated() {
                    #expect(try db.run("INSERT INTO skus (code, stock) VALUES (\(code), \(index))") == 1)
                }
                return try ["A", "C", "Z"].map { code in
                    try db.queryOne("SELECT code FROM skus WHERE code = \(code)")?.decode("code") ?? "-"
                }
            }
            #expect(codes == ["A", "C", "-"])
        }
    }

    /// Every interpolated value brings its own placeholder, so only a stray `?` typed into the text
    /// can leave a parameter without a value.
    @Test func aStrayPlaceholderWithoutAValueThrowsAndLeavesTheStatementUsable() throws {
        try withTemporaryPool { pool in
            try pool.writeSQLite { db in
                try db.execute(script: Self.schema)
                let code = "A"
                let tooFew = #expect(throws: SQLiteError.self) { try db.run("INSERT INTO skus (code, stock) VALUES (\(code), ?)") }
                #expect(tooFew?.code == 25) // SQLITE_RANGE
                #expect(tooFew?.sql == "INSERT INTO skus (code, stock) VALUES (?, ?)")
                #expect(throws: SQLiteError.self) { try db.query("SELECT * FROM skus WHERE id = ?") }
                #expect(try insert(code, stock: 1, db) == 1)
                #expect(try db.scalarInt("SELECT COUNT(*) FROM skus") == 1)
            }
        }
    }

    @Test func aUniqueViolationIsReportedWithItsSQL() throws {
        try withTemporaryPool { pool in
            try pool.writeSQLite { db in
                try db.execute(script: Self.schema)
                let sql = "INSERT INTO skus (code, stock) VALUES (?, ?)"
                try insert("ROSE-11", stock: 3, db)
                let error = #expect(throws: SQLiteError.self) { try insert("ROSE-11", stock: 4, db) }
                #expect(error?.isUniqueViolation == true)
                #expect(error?.isConstraintViolation == true)
                #expect(error?.isCheckViolation == false)
                #expect(error?.isBusy == false)
                #expect(error?.code == 19) // SQLITE_CONSTRAINT
                #expect(error?.sql == sql)
                #expect(error?.description.contains(sql) == true)
                #expect(error?.message.contains("UNIQUE") == true)
                // The failed statement was reset: the same cached statement works again.
                #expect(try insert("ROSE-12", stock: 4, db) == 1)
            }
        }
    }

    @Test func aPrimaryKeyViolationCountsAsUnique() throws {
        try withTemporaryPool { pool in
            try pool.writeSQLite { db in
                try db.execute(script: Self.schema)
                try db.run("INSERT INTO skus (id, code, stock) VALUES (1, 'A', 0)")
                let error = #expect(throws: SQLiteError.self) {
                    try db.run("INSERT INTO skus (id, code, stock) VALUES (1, 'B', 0)")
                }
                #expect(error?.isUniqueViolation == true)
            }
        }
    }

    @Test func aCheckViolationIsReportedWithItsSQL() throws {
        try withTemporaryPool { pool in
            try pool.writeSQLite { db in
                try db.execute(script: Self.schema)
                try db.run("INSERT INTO skus (code, stock) VALUES ('A', 1)")
                let sql = "UPDATE skus SET stock = stock - ? WHERE code = ?"
                let code = "A"
                let error = #expect(throws: SQLiteError.self) { try db.run("UPDATE skus SET stock = stock - \(2) WHERE code = \(code)") }
                #expect(error?.isCheckViolation == true)
                #expect(error?.isConstraintViolation == true)
                #expect(error?.isUniqueViolation == false)
                #expect(error?.sql == sql)
                #expect(try db.scalarInt("SELECT stock FROM skus WHERE code = 'A'") == 1)
            }
        }
    }

    @Test func aConstraintViolationThroughExecuteIsClassifiedToo() throws {
        try withTemporaryPool { pool in
            try pool.writeSQLite { db in
                try db.execute(script: Self.schema)
                let sql = "INSERT INTO skus (code, stock) VALUES ('A', 1); INSERT INTO skus (code, stock) VALUES ('A', 2)"
                let error = #expect(throws: SQLiteError.self) { try db.execute(sql) }
                #expect(error?.isUniqueViolation == true)
                #expect(error?.sql == sql)
                let check = #expect(throws: SQLiteError.self) { try db.execute(script: "INSERT INTO skus (code, stock) VALUES ('Z', -1)") }
                #expect(check?.isCheckViolation == true)
            }
        }
    }

    @Test func badSQLFailsToPrepareWithTheSQLInTheError() throws {
        try withTemporaryPool { pool in
            try pool.writeSQLite { db in
                let error = #expect(throws: SQLiteError.self) { try db.query("SELEC 1") }
                #expect(error?.sql == "SELEC 1")
                #expect(error?.code == 1) // SQLITE_ERROR
            }
        }
    }

    @Test func lastInsertRowIDAndChangesAreReported() throws {
        try withTemporaryPool { pool in
            try pool.writeSQLite { db in
                try db.execute(script: Self.schema)
                try db.run("INSERT INTO skus (code, stock) VALUES ('A', 1)")
                let id = db.lastInsertRowID
                #expect(try db.scalarInt("SELECT id FROM skus WHERE code = 'A'") == id)
                try db.run("INSERT INTO skus (code, stock) VALUES ('B', 1)")
                #expect(try db.run("UPDATE skus SET stock = 5") == 2)
                #expect(try db.run("DELETE FROM skus WHERE code = 'nope'") == 0)
            }
        }
    }
}
