import Localization

/// An area the shop delivers to (issue 32): cities or districts by GB/T 2260 code, the fee an order
/// to it pays, the goods' amount from which delivery is free, and whether it takes same-day orders.
public struct DeliveryZone: Sendable, Equatable, Codable {
    public let name: String
    /// Cities or districts (never provinces), none inside another, by code.
    public let regionCodes: [RegionCode]
    public let feeCents: Int64
    /// Goods worth this much or more (after a coupon's discount) travel free; nil: never free.
    public let freeOverCents: Int64?
    /// False: no same-day delivery to this zone, as for a `next_day` product.
    public let sameDay: Bool

    public init(name: String, regionCodes: [RegionCode], feeCents: Int64, freeOverCents: Int64?, sameDay: Bool) {
        self.name = name
        self.regionCodes = regionCodes
        self.feeCents = feeCents
        self.freeOverCents = freeOverCents
        self.sameDay = sameDay
    }
}

/// The zone that serves an address, as checkout and the quote use it: its terms, and the listed
/// code that holds the address (the address's district, or its city).
public struct ServingZone: Sendable, Equatable {
    public let name: String
    public let regionCode: RegionCode
    public let feeCents: Int64
    public let freeOverCents: Int64?
    public let sameDay: Bool

    /// The fee for goods worth `goodsCents` (after the coupon's discount): 0 at or above `freeOverCents`.
    public func feeCents(forGoods goodsCents: Int64) -> Int64 {
        if let freeOverCents, goodsCents >= freeOverCents { return 0 }
        return feeCents
    }

    /// How much more in goods would make delivery free ("再买 ¥X 免配送费"); nil when nothing would
    /// (no free-over amount, no fee, or already free).
    public func moreForFreeDelivery(goodsCents: Int64) -> Int64? {
        guard let freeOverCents, feeCents > 0, goodsCents < freeOverCents else { return nil }
        return freeOverCents - goodsCents
    }
}

/// A zone as an operator sends it (`PUT /admin/delivery/zones`, `shop zones import`), before
/// `DeliveryZoneRules` checks the whole set: the codes still as text, so a malformed one is named.
public struct DeliveryZoneDraft: Sendable, Equatable {
    public var name: String
    public var regionCodes: [String]
    public var feeCents: Int64
    public var freeOverCents: Int64?
    public var sameDay: Bool

    public init(name: String, regionCodes: [String], feeCents: Int64, freeOverCents: Int64? = nil, sameDay: Bool) {
        self.name = name
        self.regionCodes = regionCodes
        self.feeCents = feeCents
        self.freeOverCents = freeOverCents
        self.sameDay = sameDay
    }
}

/// Who serves an address: everyone, free, while the shop has no zones (as before zones existed),
/// else the one zone that holds it. An address outside every zone is `DeliveryZoneError.outsideArea`.
public enum DeliveryCoverage: Sendable, Equatable {
    case everywhere
    case zone(ServingZone)

    public var zone: ServingZone? {
        if case .zone(let zone) = self { return zone }
        return nil
    }

    /// Whether same-day delivery is possible at all (the calendar and the products decide the rest).
    public var sameDay: Bool { zone?.sameDay ?? true }

    /// The zone's fee for goods worth `goodsCents` after the coupon's discount; 0 without zones.
    public func feeCents(forGoods goodsCents: Int64) -> Int64 { zone?.feeCents(forGoods: goodsCents) ?? 0 }
}

/// `GET /delivery/quote`: the zone of an address, its fee (before any free-over amount, which
/// depends on the goods) and the days an order of the asked SKUs could be delivered on.
public struct DeliveryQuote: Sendable, Equatable {
    public let coverage: DeliveryCoverage
    public let feeCents: Int64
    public let days: [DeliveryDay]
}

/// Delivery zones refused.
public enum DeliveryZoneError: Error, Equatable, Sendable {
    /// The set sent breaks these rules; nothing was changed.
    case invalid([ZoneProblem])
    /// The shop has zones and none holds the address: 422 `delivery_unavailable` on `address_id`.
    case outsideArea
}

/// One thing wrong with a set of zones, naming the zone (from 1; 0 for the set as a whole).
public struct ZoneProblem: Equatable, Sendable, CustomStringConvertible {
    public let zone: Int
    public let rule: ZoneRule
    /// The rule's placeholders (`code`, `other`, `max`, …), as the message shows them.
    public let arguments: [String: LocalizedText]

    public init(zone: Int, _ rule: ZoneRule, _ arguments: [String: LocalizedText] = [:]) {
        self.zone = zone
        self.rule = rule
        self.arguments = arguments
    }

    /// "zone 2: 440399 is not a region code the shop knows" (第 2 个区域：…).
    public var message: LocalizedText {
        let text = rule.template.filling(arguments)
        guard zone > 0 else { return text }
        return LocalizedText(zh: "第 \(zone) 个区域：" + text.zh, en: "zone \(zone): " + text.en)
    }

    public var description: String { message.en }
}

/// The rules a set of zones must keep, each worded in Chinese and English.
public enum ZoneRule: String, CaseIterable, Sendable {
    case notJSON, noZones, notAnObject, unknownField, missingField, notText, notWholeNumber, notTrueOrFalse, notCodeList
    case tooManyZones, nameLength, nameControlCharacters, nameTaken, noRegions, tooManyRegions
    case malformedCode, unknownCode, province, listedTwice, overlaps, feeRange, freeOverRange

    public var template: LocalizedText {
        switch self {
        case .noZones:
            LocalizedText(zh: "请给出区域列表：含 zones 数组的对象，或数组本身（空列表表示取消所有区域）。",
                          en: "give the list of zones: an object with a zones array, or the array itself (an empty list removes every zone).")
        case .notJSON: LocalizedText(zh: "文件不是有效的 UTF-8 JSON。", en: "the file is not valid UTF-8 JSON.")
        case .notAnObject:
            LocalizedText(zh: "应为含 name、region_codes、fee_cents 和 same_day 的对象。",
                          en: "must be an object with name, region_codes, fee_cents and same_day.")
        case .unknownField: LocalizedText(zh: "没有 {field} 这个字段。", en: "unknown field {field}.")
        case .missingField: LocalizedText(zh: "缺少 {field}。", en: "{field} is required.")
        case .notText: LocalizedText(zh: "{field} 应为文字。", en: "{field} must be text.")
        case .notWholeNumber: LocalizedText(zh: "{field} 应为整数。", en: "{field} must be a whole number.")
        case .notTrueOrFalse: LocalizedText(zh: "{field} 应为 true 或 false。", en: "{field} must be true or false.")
        case .notCodeList:
            LocalizedText(zh: "region_codes 应为代码文字的列表，如 [\"110105\"]。",
                          en: "region_codes must be a list of codes as text, such as [\"110105\"].")
        case .tooManyZones: LocalizedText(zh: "最多 {max} 个区域。", en: "at most {max} zones.")
        case .nameLength: LocalizedText(zh: "名称应为 1 到 {max} 个字。", en: "name must be 1 to {max} characters.")
        case .nameControlCharacters: LocalizedText(zh: "名称不能含有控制字符。", en: "name must not contain control characters.")
        case .nameTaken: LocalizedText(zh: "名称“{name}”与第 {other} 个区域重复。", en: "the name {name} is also zone {other}'s.")
        case .noRegions: LocalizedText(zh: "region_codes 不能为空。", en: "region_codes must list at least one code.")
        case .tooManyRegions: LocalizedText(zh: "region_codes 最多 {max} 个。", en: "region_codes must list at most {max} codes.")
        case .malformedCode:
            LocalizedText(zh: "“{code}”不是 6 位数字的行政区划代码。", en: "{code} is not a six-digit region code.")
        case .unknownCode:
            LocalizedText(zh: "{code} 不是本店认识的行政区划代码。", en: "{code} is not a region code the shop knows.")
        case .province:
            LocalizedText(zh: "{code}（{region}）是省级区划：请列出它的市或区县。",
                          en: "{code} ({region}) is a province: list its cities or districts instead.")
        case .listedTwice:
            LocalizedText(zh: "{code}（{region}）在第 {other} 个区域里已经列过。", en: "{code} ({region}) is listed in zone {other} already.")
        case .overlaps:
            LocalizedText(zh: "{code}（{region}）位于第 {other} 个区域的 {ancestor}（{ancestor_name}）之内，区域不能重叠。",
                          en: "{code} ({region}) lies inside {ancestor} ({ancestor_name}) of zone {other}: zones must not overlap.")
        case .feeRange:
            LocalizedText(zh: "fee_cents 应为 0 到 {max} 之间的整数（分）。", en: "fee_cents must be a whole number of cents from 0 to {max}.")
        case .freeOverRange:
            LocalizedText(zh: "free_over_cents 应为 0 到 {max} 之间的整数（分）。",
                          en: "free_over_cents must be a whole number of cents from 0 to {max}.")
        }
    }
}
