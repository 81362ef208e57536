import Foundation
import SQL

/// What the recipient's tracking page shows: the order (its status, day, slot, card, photo and
/// recipient), and who sent the flowers unless the buyer asked to stay anonymous.
public struct TrackedOrder: Sendable, Equatable {
    public let order: Order
    /// The buyer's nickname and phone; nil when `anonymous_sender`.
    public let senderName: String?
    public let senderPhone: String?
}

extension OrderService {
    /// The order a tracking page's token names, for anyone holding the link. A token of the wrong
    /// shape is `notFound` before anything is read; so is one no order has.
    public func tracked(token: String) throws -> TrackedOrder {
        guard TrackingToken.isWellFormed(token) else { throw OrderError.notFound }
        return try pool.read { db in
            guard let order = try orders.find(trackingToken: token, db) else { throw OrderError.notFound }
            guard !order.anonymousSender else { return TrackedOrder(order: order, senderName: nil, senderPhone: nil) }
            let buyer = try db.queryOne("SELECT nickname, phone FROM users WHERE id = \(order.userID)")
            return TrackedOrder(order: order, senderName: try buyer?.decode("nickname", as: String?.self),
                                senderPhone: try buyer?.decode("phone", as: String.self))
        }
    }
}

/// Phones as a page anyone with the link may read shows them: `138****1234`.
public enum MaskedPhone {
    public static func mask(_ phone: String) -> String {
        let digits = Array(phone)
        guard digits.count >= 7 else { return String(repeating: "*", count: digits.count) }
        return String(digits.prefix(3)) + "****" + String(digits.suffix(4))
    }
}
