import Foundation
import SQL

extension Entity {
    public enum Notice {}
}

/// One row of the notices outbox.
public typealias NoticeID = ID<Entity.Notice>

/// What happened to an order that its buyer (and for some, its recipient) is told of.
public enum NoticeEvent: String, Sendable, Codable, CaseIterable, SQLCodable {
    case paid, shipped, delivered, refunded
    case afterSaleDecided = "after_sale_decided"

    /// Who hears of it: the buyer always; the recipient only of the flowers on their way and at the door.
    var audiences: [NoticeAudience] {
        switch self {
        case .shipped, .delivered: [.buyer, .recipient]
        case .paid, .refunded, .afterSaleDecided: [.buyer]
        }
    }
}

/// Who a notice is for.
public enum NoticeAudience: String, Sendable, Codable, CaseIterable, SQLCodable {
    case buyer, recipient
}

/// Where a notice is: `pending` (due at its next attempt), `sending` (claimed by a dispatcher
/// until its claim expires), `sent`, or `failed` (retries used up; an operator may retry it).
public enum NoticeStatus: String, Sendable, Codable, CaseIterable, SQLCodable {
    case pending, sending, sent, failed
}

/// One message of the outbox.
public struct Notice: Sendable, Equatable {
    public let id: NoticeID
    public let orderID: OrderID
    public let orderNumber: String
    public let event: NoticeEvent
    /// Which refund or after-sale request, for events an order may have more than once; "" otherwise.
    public let subject: String
    public let audience: NoticeAudience
    /// The phone the message goes to.
    public let to: String
    public let text: String
    public let status: NoticeStatus
    public let attempts: Int
    public let nextAttemptAt: Date
    public let createdAt: Date
    public let sentAt: Date?
    public let lastError: String?
}

/// A notice as a sender delivers it; the file sender writes it as one JSON line
/// `{"id", "to", "event", "order_number", "text", "sent_at"}` (`id` lets a reader, and the
/// sender itself after a crash, tell a message already written).
public struct NoticeMessage: Sendable, Codable, Equatable {
    public let id: NoticeID
    public let to: String
    public let event: NoticeEvent
    public let orderNumber: String
    public let text: String
    public let sentAt: Date

    public init(id: NoticeID, to: String, event: NoticeEvent, orderNumber: String, text: String, sentAt: Date) {
        self.id = id
        self.to = to
        self.event = event
        self.orderNumber = orderNumber
        self.text = text
        self.sentAt = sentAt
    }
}

extension Notice {
    /// A notice from a row of `NoticeStore.columns`.
    init(row: Row) throws {
        self.init(id: try row.decode("id"), orderID: try row.decode("order_id"), orderNumber: try row.decode("order_number"),
                  event: try row.decode("event"), subject: try row.decode("subject"), audience: try row.decode("audience"),
                  to: try row.decode("recipient"), text: try row.decode("text"), status: try row.decode("status"),
                  attempts: Int(try row.decode("attempts", as: Int64.self)), nextAttemptAt: try row.decode("next_attempt_at"),
                  createdAt: try row.decode("created_at"), sentAt: try row.decode("sent_at"), lastError: try row.decode("last_error"))
    }
}
