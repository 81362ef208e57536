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
            try db.execute(script: "PRAGMA ignore_check_constraints = ON")
            defer { try? db.execute(script: "PRAGMA ignore_check_constraints = OFF") }
            try db.run("UPDATE users SET gender = 'robot' WHERE id = \(user)")
        }
        let error = #expect(throws: RowDecodingError.self) { try fixture.accounts.user(user) }
        #expect(error?.table == "users")
        #expect(error?.column == "gender")
        #expect(error?.value == .text("robot"))
    }
}
