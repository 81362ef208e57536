import SQL

/// A typed integer id: a `UserID` cannot be passed where an `OrderID` is expected.
public struct ID<Entity>: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { String(rawValue) }
}

/// An id binds and decodes as its integer, so stores never unwrap it.
extension ID: SQLCodable {
    public var sqlValue: SQLValue { .integer(rawValue) }
    public init(sqlValue: SQLValue) throws { self.init(try Int64(sqlValue: sqlValue)) }
}

/// Phantom tags naming what an `ID` identifies.
public enum Entity {
    public enum User {}
    public enum Category {}
    public enum Product {}
    public enum SKU {}
    public enum CartItem {}
    public enum Address {}
    public enum Order {}
    public enum Payment {}
    public enum Article {}
    public enum ArticleCategory {}
    public enum Comment {}
}

public typealias UserID = ID<Entity.User>
public typealias CategoryID = ID<Entity.Category>
public typealias ProductID = ID<Entity.Product>
public typealias SKUID = ID<Entity.SKU>
public typealias CartItemID = ID<Entity.CartItem>
public typealias AddressID = ID<Entity.Address>
public typealias OrderID = ID<Entity.Order>
public typealias PaymentID = ID<Entity.Payment>
public typealias ArticleID = ID<Entity.Article>
public typealias ArticleCategoryID = ID<Entity.ArticleCategory>
public typealias CommentID = ID<Entity.Comment>

extension Entity {
    public enum Coupon {}
}

public typealias CouponID = ID<Entity.Coupon>
