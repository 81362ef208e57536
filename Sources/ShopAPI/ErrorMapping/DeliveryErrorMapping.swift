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

extension ErrorMapping {
    /// Delivery zones: an address outside every zone is 422 `delivery_unavailable` on `address_id`;
    /// a refused set of zones is 422 `invalid_zones`, its message listing every problem (`zone N: …`).
    @Sendable static func deliveryZone(_ error: any Error) -> HTTPError? {
        guard let error = error as? DeliveryZoneError else { return nil }
        switch error {
        case .outsideArea:
            return HTTPError(APIMessage.outsideDeliveryArea, field: "address_id")
        case .invalid(let problems):
            let messages = problems.map(\.message)
            let list = LocalizedText(zh: messages.map(\.zh).joined(separator: "；"), en: messages.map(\.en).joined(separator: "; "))
            return HTTPError(APIMessage.invalidZones, ["problems": list], field: "zones")
        }
    }

    /// A refused synonyms dictionary is 422 `invalid_synonyms` on `text`, its message naming each
    /// problem's line (`line N: …`).
    @Sendable static func synonyms(_ error: any Error) -> HTTPError? {
        guard case .invalid(let problems)? = error as? SynonymError else { return nil }
        // The first 20 problems (a pasted file can have thousands): their lines show where to look.
        let messages = problems.prefix(20).map(\.message)
        let list = LocalizedText(zh: messages.map(\.zh).joined(separator: "；"), en: messages.map(\.en).joined(separator: "; "))
        return HTTPError(APIMessage.invalidSynonyms, ["problems": list], field: "text")
    }
}
