import HTTP
import Localization
import ShopCore

extension ErrorMapping {
    /// Delivery days: a day or slot the shop cannot deliver on is 422 `delivery_unavailable`, naming
    /// the field and, in the message, the earliest possible day.
    @Sendable static func delivery(_ error: any Error) -> HTTPError? {
        guard let error = error as? DeliveryUnavailable else { return nil }
        guard let earliest = error.earliest else { return HTTPError(APIMessage.noDeliveryDay, field: error.field) }
        let message: APIMessage = error.field == "delivery_slot" ? .deliverySlotUnavailable : .deliveryDateUnavailable
        return HTTPError(message, ["earliest": .verbatim(earliest.description)], field: error.field)
    }
}
