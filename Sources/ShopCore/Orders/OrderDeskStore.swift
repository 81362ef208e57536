import Foundation
import SQL

/// SQL for what the operators' desk reads and writes beside orders themselves: notes, payment
/// attempts and the buyer's phone.
struct OrderDeskStore {
    func addNote(to order: OrderID, by actor: StaffActor, text: String, at now: Int64, _ db: any SQLConnection) throws -> OrderNote {
        let id = try db.insert("""
            INSERT INTO order_notes (order_id, staff_id, author, text, created_at)
            VALUES (\(order), \(actor.staffID), \(actor.name), \(text), \(now))
            """, returning: Int64.self)
        return OrderNote(id: id, author: actor.name, text: text, createdAt: Date(timeIntervalSince1970: TimeInterval(now)))
    }

    func notes(of order: OrderID, _ db: any SQLConnection) throws -> [OrderNote] {
        try db.query("SELECT id, author, text, created_at FROM order_notes WHERE order_id = \(order) ORDER BY id").map { row in
            OrderNote(id: try row.decode("id"), author: try row.decode("author"), text: try row.decode("text"),
                      createdAt: try row.decode("created_at"))
        }
    }

    func payments(of order: OrderID, _ db: any SQLConnection) throws -> [OrderPayment] {
        try db.query("""
            SELECT id, provider, amount_cents, status, created_at FROM payments WHERE order_id = \(order) ORDER BY id
            """).map { row in
            OrderPayment(id: try row.decode("id"), provider: try row.decode("provider"), amountCents: try row.decode("amount_cents"),
                         status: try row.decode("status"), createdAt: try row.decode("created_at"))
        }
    }

    func buyerPhone(of user: UserID, _ db: any SQLConnection) throws -> String {
        try db.scalar("SELECT phone FROM users WHERE id = \(user)", as: String.self) ?? ""
    }

    func cancelReason(of order: OrderID, _ db: any SQLConnection) throws -> String? {
        try db.queryOne("SELECT cancel_reason FROM orders WHERE id = \(order)").flatMap { try $0.decode("cancel_reason", as: String?.self) }
    }
}
