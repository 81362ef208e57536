import HTTP
import ShopCore

extension Request {
    /// An optional whole-number query parameter; anything else is a 400 naming it. A whole
    /// number written with a zero fraction (`7.0`) is one, as JSON Schema's `integer` counts it.
    func queryInt(_ name: String) throws -> Int64? {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard let value = Self.wholeNumber(text) else { throw ValidationError(name, .wholeNumber) }
        return value
    }

    /// `text` as a whole number: digits with an optional sign, optionally `.0…` after them.
    static func wholeNumber(_ text: String) -> Int64? {
        if let value = Int64(text) { return value }
        guard let dot = text.firstIndex(of: "."), case let fraction = text[text.index(after: dot)...],
              !fraction.isEmpty, fraction.allSatisfy({ $0 == "0" }) else { return nil }
        return Int64(text[..<dot])
    }

    /// An optional query parameter that must be one of an enum's raw values.
    func queryEnum<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws -> T? where T.RawValue == String {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard let value = T(rawValue: text) else {
            throw ValidationError.oneOf(name, T.allCases.map(\.rawValue))
        }
        return value
    }

    /// An optional boolean query parameter: `true` or `false`, as OpenAPI writes a boolean in a
    /// query (empty: absent); anything else (`1`, `yes`, `TRUE`) is a 400 naming it.
    func queryBool(_ name: String) throws -> Bool? {
        guard let text = query[name], !text.isEmpty else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw ValidationError.oneOf(name, ["true", "false"])
        }
    }

    /// An optional comma-separated list of an enum's raw values (`a,b`; empty or absent: none),
    /// repeats counted once; a value outside the enum is a 400 naming the parameter.
    func queryEnumList<T: RawRepresentable & CaseIterable & Equatable>(_ name: String, _ type: T.Type) throws -> [T] where T.RawValue == String {
        guard let text = query[name], !text.isEmpty else { return [] }
        var values: [T] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = T(rawValue: String(part)) else { throw ValidationError.oneOf(name, T.allCases.map(\.rawValue)) }
            if !values.contains(value) { values.append(value) }
        }
        return values
    }

    /// An optional free-text query parameter of at most `max` characters (empty: absent); longer is a 400 naming it.
    func queryText(_ name: String, max: Int) throws -> String? {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard text.count <= max else { throw ValidationError.tooLong(name, max: max) }
        return text
    }

    /// An optional `YYYY-MM-DD` query parameter; anything else (an empty value too) is a 400 naming it.
    func queryDay(_ name: String) throws -> CalendarDay? {
        guard let text = query[name] else { return nil }
        guard let day = CalendarDay(text) else { throw ValidationError(name, .date) }
        return day
    }

    /// `?page=&per_page=` (defaults 1 and 20; per_page 1..100).
    func pageRequest() throws -> PageRequest {
        try PageRequest(page: Int(try queryInt("page") ?? 1), perPage: Int(try queryInt("per_page") ?? 20))
    }

    /// A `:name` path parameter that must be a positive id; anything else is a 404.
    func idParameter(_ name: String = "id") throws -> Int64 {
        guard let value = Int64(try parameter(name)), value > 0 else { throw HTTPError.notFound() }
        return value
    }
}

/// `{"items", "page", "per_page", "total"}`.
struct PageResponse<Item: Encodable>: Encodable {
    let items: [Item]
    let page: Int
    let perPage: Int
    let total: Int

    init<Source>(_ page: Page<Source>, _ transform: (Source) throws -> Item) rethrows {
        items = try page.items.map(transform)
        self.page = page.page
        perPage = page.perPage
        total = page.total
    }
}

/// `{"items": [...]}` for lists that are not paged.
struct ItemsResponse<Item: Encodable>: Encodable {
    let items: [Item]
}

extension PageResponse: Decodable where Item: Decodable {}
extension ItemsResponse: Decodable where Item: Decodable {}
