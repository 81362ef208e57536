import Foundation
import SQL

/// The notices an order's events owe, written into the outbox (`notifications`) inside the
/// event's own transaction: the event and its messages commit together or not at all, and a
/// dispatcher (`NoticeOutbox`) sends them later, off every request. The buyer hears of each
/// event; the recipient of the flowers on their way and at the door, unless the buyer asked not.
public struct Notices: Sendable {
    /// The shop's public origin (`app.public_url`): tracking links start with it.
    let linkBase: String
    let clock: Clock
    private let store = NoticeStore()
    private let orders = OrderStore()

    /// `linkBase` is the origin the tracking links in the texts start with (no trailing slash).
    public init(linkBase: String, clock: Clock) {
        self.linkBase = linkBase
        self.clock = clock
    }

    /// The one call for an event: writes the messages `event` owes for `order` into the outbox,
    /// in `db`, the transaction that records the event. `subject` tells apart events an order may
    /// have more than once (a refund's number, an after-sale request's id); the same event, order,
    /// subject and audience again writes nothing.
    public func enqueue(event: NoticeEvent, order id: OrderID, subject: String = "", in db: any SQLConnection) throws {
        guard let order = try orders.find(id, db) else { return }
        let now = clock.unixNow
        for audience in event.audiences {
            let to: String
            switch audience {
            case .buyer: to = try OrderDeskStore().buyerPhone(of: order.userID, db)
            case .recipient:
                guard order.notifyRecipient else { continue }
                to = order.address.phone
            }
            guard !to.isEmpty else { continue }
            try store.add(order: id, event: event, subject: subject, audience: audience, to: to,
                          text: text(event, for: audience, order: order), at: now, db)
        }
    }

    /// The order's tracking page, absolute; nil for an order placed before tracking pages.
    public func trackingURL(_ order: Order) -> String? {
        order.trackingToken.map { linkBase + TrackingToken.path($0) }
    }

    /// The message, in Chinese, naming the order and its tracking link.
    func text(_ event: NoticeEvent, for audience: NoticeAudience, order: Order) -> String {
        let link = trackingURL(order).map { "查看：\($0)" } ?? ""
        let shop = "【花田小憩】"
        switch (event, audience) {
        case (.paid, _):
            return "\(shop)订单\(order.number)已付款，我们正在为您准备花束\(Self.when(order))。\(link)"
        case (.shipped, .buyer):
            return "\(shop)订单\(order.number)的鲜花已出发，正送往\(order.address.recipient)。\(link)"
        case (.shipped, .recipient):
            return "\(shop)\(order.address.recipient)您好，有一束为您订的鲜花正在路上\(Self.when(order))，请留意电话。\(link)"
        case (.delivered, .buyer):
            return "\(shop)订单\(order.number)的鲜花已送达\(order.address.recipient)。\(link)"
        case (.delivered, .recipient):
            return "\(shop)\(order.address.recipient)您好，您的鲜花已送达，祝您心情如花。\(link)"
        case (.refunded, _):
            return "\(shop)订单\(order.number)的退款已完成，款项将原路退回。\(link)"
        case (.afterSaleDecided, _):
            return "\(shop)订单\(order.number)的售后申请已处理，请查看结果。\(link)"
        }
    }

    /// `（12月2日下午）`: the delivery day and slot, when the order has them.
    static func when(_ order: Order) -> String {
        guard let day = order.delivery.date else { return "" }
        return "（\(day.month)月\(day.day)日\(order.delivery.slot.map(slotName) ?? "")送达）"
    }

    /// A slot as a Chinese reader says it.
    public static func slotName(_ slot: DeliverySlot) -> String {
        switch slot {
        case .morning: "上午"
        case .afternoon: "下午"
        case .evening: "晚上"
        }
    }
}
