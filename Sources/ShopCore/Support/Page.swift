import SQL

/// A page of a list: `{"items", "page", "per_page", "total"}`.
public struct Page<Item: Sendable>: Sendable {
    public let items: [Item]
    public let page: Int
    public let perPage: Int
    public let total: Int

    public init(items: [Item], page: Int, perPage: Int, total: Int) {
        self.items = items
        self.page = page
        self.perPage = perPage
        self.total = total
    }

    public func map<T>(_ transform: (Item) throws -> T) rethrows -> Page<T> {
        Page<T>(items: try items.map(transform), page: page, perPage: perPage, total: total)
    }
}

/// Which page of a list to read.
public struct PageRequest: Sendable, Equatable {
    public let page: Int
    public let perPage: Int

    /// Throws `ValidationError` unless page ≥ 1 and per_page is 1...100.
    public init(page: Int = 1, perPage: Int = 20) throws {
        try Validate.page(page, perPage: perPage)
        self.page = page
        self.perPage = perPage
    }

    /// A page of any size, for reads inside the shop (the expansion reads a term's first 1,000 matches).
    init(unchecked page: Int, perPage: Int) {
        self.page = page
        self.perPage = perPage
    }

    public var offset: Int { (page - 1) * perPage }
}

extension SQLConnection {
    /// One page of a list: `count` counts all its rows; `rows` selects them in order (without
    /// LIMIT), and only `page`'s slice of it is read and handed to `decode` in one go (so it can
    /// read what the items need for the whole page at once).
    func page<Item>(_ page: PageRequest, count: SQL, rows: SQL, decode: ([Row]) throws -> [Item]) throws -> Page<Item> {
        let total = try scalarInt(count) ?? 0
        let slice = try query("\(rows) LIMIT \(page.perPage) OFFSET \(page.offset)")
        return Page(items: try decode(slice), page: page.page, perPage: page.perPage, total: Int(total))
    }

    /// `page(_:count:rows:decode:)`, each row decoded alone.
    func page<Item>(_ page: PageRequest, count: SQL, rows: SQL, each decode: (Row) throws -> Item) throws -> Page<Item> {
        try self.page(page, count: count, rows: rows) { try $0.map(decode) }
    }
}
