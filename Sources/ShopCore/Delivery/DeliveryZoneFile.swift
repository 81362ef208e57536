import Foundation

/// A zones file as `shop zones import` reads it: JSON, either `{"zones": [...]}` (what `GET
/// /admin/delivery/zones` answers) or the bare array, each zone `{"name", "region_codes",
/// "fee_cents", "free_over_cents"?, "same_day"}` and nothing else. Every problem of shape is
/// collected (`zone N: …`) before any is reported; `DeliveryZoneRules` then checks the content.
public enum DeliveryZoneFile {
    /// The largest file read: 100 zones of 500 codes fit several times over.
    public static let maxBytes = 2 << 20

    static let fields: Set<String> = ["name", "region_codes", "fee_cents", "free_over_cents", "same_day"]

    public static func drafts(from data: Data) throws(DeliveryZoneError) -> [DeliveryZoneDraft] {
        guard String(data: data, encoding: .utf8) != nil,
              let top = try? JSONDecoder().decode(JSONValue.self, from: data) else { throw .invalid([ZoneProblem(zone: 0, .notJSON)]) }
        let list: [JSONValue]
        switch top {
        case .array(let items):
            list = items
        case .object(let object):
            guard case .array(let items)? = object["zones"] else { throw .invalid([ZoneProblem(zone: 0, .noZones)]) }
            if let extra = object.keys.sorted().first(where: { $0 != "zones" }) {
                throw .invalid([ZoneProblem(zone: 0, .unknownField, ["field": .verbatim(extra)])])
            }
            list = items
        default:
            throw .invalid([ZoneProblem(zone: 0, .noZones)])
        }
        guard list.count <= DeliveryZoneRules.maxZones else {
            throw .invalid([ZoneProblem(zone: 0, .tooManyZones, ["max": .verbatim(String(DeliveryZoneRules.maxZones))])])
        }
        var problems: [ZoneProblem] = []
        var drafts: [DeliveryZoneDraft] = []
        for (offset, item) in list.enumerated() {
            var reader = ZoneReader(zone: offset + 1)
            guard case .object(let object) = item else {
                problems.append(ZoneProblem(zone: offset + 1, .notAnObject))
                continue
            }
            for key in object.keys.sorted() where !fields.contains(key) {
                reader.problems.append(ZoneProblem(zone: offset + 1, .unknownField, ["field": .verbatim(key)]))
            }
            let name = reader.text(object, "name")
            let codes = reader.codes(object)
            let fee = reader.wholeNumber(object, "fee_cents", required: true)
            let freeOver = reader.wholeNumber(object, "free_over_cents", required: false)
            let sameDay = reader.bool(object, "same_day")
            problems += reader.problems
            if let name, let codes, let fee, let sameDay, reader.problems.isEmpty {
                drafts.append(DeliveryZoneDraft(name: name, regionCodes: codes, feeCents: fee, freeOverCents: freeOver, sameDay: sameDay))
            }
        }
        guard problems.isEmpty else { throw .invalid(problems) }
        return drafts
    }

    /// Reads one zone's fields, noting what is missing or of the wrong kind.
    private struct ZoneReader {
        let zone: Int
        var problems: [ZoneProblem] = []

        mutating func value(_ object: [String: JSONValue], _ field: String, required: Bool) -> JSONValue? {
            switch object[field] {
            case nil, .null?:
                if required { problems.append(ZoneProblem(zone: zone, .missingField, ["field": .verbatim(field)])) }
                return nil
            case let value?:
                return value
            }
        }

        mutating func text(_ object: [String: JSONValue], _ field: String) -> String? {
            guard let value = value(object, field, required: true) else { return nil }
            guard case .string(let text) = value else {
                problems.append(ZoneProblem(zone: zone, .notText, ["field": .verbatim(field)]))
                return nil
            }
            return text
        }

        mutating func wholeNumber(_ object: [String: JSONValue], _ field: String, required: Bool) -> Int64? {
            guard let value = value(object, field, required: required) else { return nil }
            guard case .number(let number) = value, number == number.rounded(), abs(number) < 1e15 else {
                problems.append(ZoneProblem(zone: zone, .notWholeNumber, ["field": .verbatim(field)]))
                return nil
            }
            return Int64(number)
        }

        mutating func bool(_ object: [String: JSONValue], _ field: String) -> Bool? {
            guard let value = value(object, field, required: true) else { return nil }
            guard case .bool(let flag) = value else {
                problems.append(ZoneProblem(zone: zone, .notTrueOrFalse, ["field": .verbatim(field)]))
                return nil
            }
            return flag
        }

        mutating func codes(_ object: [String: JSONValue]) -> [String]? {
            guard let value = value(object, "region_codes", required: true) else { return nil }
            guard case .array(let items) = value else {
                problems.append(ZoneProblem(zone: zone, .notCodeList))
                return nil
            }
            var codes: [String] = []
            for item in items {
                guard case .string(let code) = item else {
                    problems.append(ZoneProblem(zone: zone, .notCodeList))
                    return nil
                }
                codes.append(code)
            }
            return codes
        }
    }
}
