import SQL
import SQLite
import ShopCore
import ShopTestSupport
import Testing

@Suite("A corrupt stored row")
struct CorruptRowTests {
    @Test func anUnknownGenderIsReportedNotReadAsUnknown() throws {
        let fixture = try TestShop()
        let user = try fixture.register("13800138000").user.id
        try fixture.pool.write { db in
            // Only a bypassed CHECK constraint (or a hand edit) can store this.
            try TestDatabase.corrupting("users", column: "gender", db) {
                _ = try db.run("UPDATE users SET gender = 'robot' WHERE id = \(user)")
            }
        }
        let error = #expect(throws: RowDecodingError.self) { try fixture.accounts.user(user) }
        #expect(error?.table == "users" || error?.table == nil && TestDatabase.isPostgreSQL) // PostgreSQL results name no table
        #expect(error?.column == "gender")
        #expect(error?.value == .text("robot"))
    }
}
