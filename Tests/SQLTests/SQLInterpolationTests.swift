import Foundation
import SQL
import Testing

private enum Colour: String, SQLCodable { case red, white }

private struct Tagged: SQLCodable, Equatable {
    let rawValue: Int64
    var sqlValue: SQLValue { .integer(rawValue) }
    init(_ rawValue: Int64) { self.rawValue = rawValue }
    init(sqlValue: SQLValue) throws { rawValue = try Int64(sqlValue: sqlValue) }
}

@Suite("SQL: interpolation binds, fragments splice")
struct SQLInterpolationTests {
    private func sqlite(_ sql: SQL) -> (String, [SQLValue]) { sql.render { _ in "?" } }
    private func postgres(_ sql: SQL) -> (String, [SQLValue]) { sql.render { "$\($0)" } }

    @Test func everyInterpolatedValueBecomesAParameterInOrder() {
        let name = "玫瑰'; DROP TABLE skus; --"
        let sql: SQL = "SELECT id FROM products WHERE title = \(name) AND stock > \(3) AND colour = \(Colour.red)"
        let (text, values) = sqlite(sql)
        #expect(text == "SELECT id FROM products WHERE title = ? AND stock > ? AND colour = ?")
        #expect(values == [.text(name), .integer(3), .text("red")])
        #expect(postgres(sql).0 == "SELECT id FROM products WHERE title = $1 AND stock > $2 AND colour = $3")
    }

    @Test func fragmentsComposeAndNumberTheirParametersAtTheEnd() {
        var sql: SQL = "SELECT id FROM orders WHERE user_id = \(Tagged(7))"
        let status: String? = "paid"
        if let status { sql += " AND status = \(status)" }
        let order: SQL = " ORDER BY created_at DESC"
        sql = sql + order + " LIMIT \(20)"
        let (text, values) = postgres(sql)
        #expect(text == "SELECT id FROM orders WHERE user_id = $1 AND status = $2 ORDER BY created_at DESC LIMIT $3")
        #expect(values == [.integer(7), .text("paid"), .integer(20)])
    }

    @Test func anInterpolatedFragmentKeepsItsOwnValues() {
        let filter: SQL = "category_id = \(Int64(4))"
        let sql: SQL = "SELECT * FROM products WHERE \(filter) AND price_cents < \(Int64(100))"
        #expect(sqlite(sql) == ("SELECT * FROM products WHERE category_id = ? AND price_cents < ?", [.integer(4), .integer(100)]))
    }

    @Test func listsAndJoinsMakeOneParameterPerElement() {
        let ids: [Int64] = [3, 1, 2]
        let sql: SQL = "DELETE FROM cart_items WHERE id IN (\(list: ids))"
        #expect(sqlite(sql) == ("DELETE FROM cart_items WHERE id IN (?, ?, ?)", [.integer(3), .integer(1), .integer(2)]))
        let clauses: [SQL] = ["a = \(1)", "b = \(2)"]
        #expect(sqlite(clauses.joined(separator: " AND ")) == ("a = ? AND b = ?", [.integer(1), .integer(2)]))
        #expect(([] as [SQL]).joined(separator: " AND ").isEmpty)
    }

    @Test func identifiersAreSplicedQuotedAndNilBindsNull() {
        let column = SQLIdentifier("shipped_at")
        let note: String? = nil
        let sql: SQL = "UPDATE orders SET \(column) = \(Date(timeIntervalSince1970: 1_800_000_000)), note = \(note)"
        #expect(sqlite(sql) == (#"UPDATE orders SET "shipped_at" = ?, note = ?"#, [.integer(1_800_000_000), .null]))
    }

    @Test func typedValuesDecodeThemselvesAndRefuseAnythingElse() throws {
        #expect(try Colour(sqlValue: .text("white")) == .white)
        #expect(throws: SQLValueMismatch.self) { try Colour(sqlValue: .text("purple")) }
        #expect(try Tagged(sqlValue: .integer(9)) == Tagged(9))
        #expect(throws: SQLValueMismatch.self) { try Int64(sqlValue: .text("9")) }
        #expect(throws: SQLValueMismatch.self) { try Bool(sqlValue: .integer(2)) }
        #expect(try Date(sqlValue: .integer(60)) == Date(timeIntervalSince1970: 60))
        #expect(try String?(sqlValue: .null) == nil)
    }
}
