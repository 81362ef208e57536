import SQL

/// Part of a delivery day a buyer may ask for. Today, a slot is offered only while it has not
/// started yet (morning before 09:00, afternoon before 13:00, evening before 18:00): the florist
/// needs the flowers made before the courier leaves.
public enum DeliverySlot: String, Sendable, Codable, CaseIterable, SQLCodable {
    case morning, afternoon, evening

    /// When the slot starts, in minutes after midnight in the shop's time zone.
    public var startMinute: Int {
        switch self {
        case .morning: 9 * 60
        case .afternoon: 13 * 60
        case .evening: 18 * 60
        }
    }
}

/// Whether a product can go out on the day it is ordered (`same_day`, the default of the import)
/// or needs a day of preparation (`next_day`: potted plants, made-to-order arrangements).
public enum DeliveryKind: String, Sendable, Codable, CaseIterable, SQLCodable {
    case sameDay = "same_day"
    case nextDay = "next_day"
}

/// A day the shop can deliver on, and the slots still open that day.
public struct DeliveryDay: Sendable, Equatable {
    public let date: CalendarDay
    public let slots: [DeliverySlot]
}

/// The delivery asked for at checkout, after validation: a day and slot, a greeting card.
public struct DeliveryRequest: Sendable, Equatable {
    /// nil: the earliest possible day.
    public let date: CalendarDay?
    /// nil: any time that day.
    public let slot: DeliverySlot?
    public let cardMessage: String?
    public let cardSignature: String?

    public init(date: CalendarDay? = nil, slot: DeliverySlot? = nil, cardMessage: String? = nil, cardSignature: String? = nil) {
        self.date = date
        self.slot = slot
        self.cardMessage = cardMessage
        self.cardSignature = cardSignature
    }

    var isEmpty: Bool { date == nil && slot == nil && cardMessage == nil && cardSignature == nil }
}

/// When and with which card an order is delivered, as the order keeps it.
public struct OrderDelivery: Sendable, Equatable {
    /// nil only for orders placed before delivery days existed.
    public let date: CalendarDay?
    public let slot: DeliverySlot?
    public let cardMessage: String?
    public let cardSignature: String?
}

extension DeliveryRequest {
    /// The delivery fields as a client sent them: `date` exactly `YYYY-MM-DD`, `slot` one of the
    /// slots; 400 `validation_failed` naming the field otherwise. The card is checked at checkout.
    public init(dateText: String?, slotText: String?, cardMessage: String?, cardSignature: String?) throws {
        var date: CalendarDay?
        if let dateText {
            guard let day = CalendarDay(dateText) else { throw ValidationError("delivery_date", .date) }
            date = day
        }
        var slot: DeliverySlot?
        if let slotText {
            guard let value = DeliverySlot(rawValue: slotText) else {
                throw ValidationError.oneOf("delivery_slot", DeliverySlot.allCases.map(\.rawValue))
            }
            slot = value
        }
        self.init(date: date, slot: slot, cardMessage: cardMessage, cardSignature: cardSignature)
    }
}

/// One slot of one day: what a slot's capacity counts orders by.
public struct DaySlot: Hashable, Sendable {
    public let date: CalendarDay
    public let slot: DeliverySlot

    public init(date: CalendarDay, slot: DeliverySlot) {
        self.date = date
        self.slot = slot
    }
}
