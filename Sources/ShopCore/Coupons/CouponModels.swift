import Foundation

/// What a coupon takes off: a percentage or a fixed amount of the lines it applies to.
public enum CouponRule: Sendable, Equatable {
    /// 1...99 percent off; the discount is rounded down to the cent.
    case percentOff(Int)
    /// This many cents off, never more than the lines it applies to cost.
    case amountOff(cents: Int64)
}

/// A coupon as operators see it.
public struct Coupon: Sendable, Equatable {
    public let id: CouponID
    /// Upper case; buyers may type it in any case.
    public let code: String
    public let description: String
    public let rule: CouponRule
    /// The lines it applies to must cost at least this much together (0: no minimum).
    public let minSpendCents: Int64
    public let startsAt: Date?
    /// The first moment it no longer applies.
    public let endsAt: Date?
    public let maxUses: Int?
    public let perUserLimit: Int?
    /// Only lines of this category (and those under it) count; nil: every line.
    public let categoryID: CategoryID?
    public let categoryPath: String?
    /// Orders holding a use now: a cancelled order's use was given back.
    public let uses: Int
    public let disabledAt: Date?
    public let createdAt: Date

    /// `active`, `disabled`, `scheduled`, `expired` or `used_up`, at `now`.
    public func state(at now: Date) -> String {
        if disabledAt != nil { return "disabled" }
        if let endsAt, now >= endsAt { return "expired" }
        if let startsAt, now < startsAt { return "scheduled" }
        if let maxUses, uses >= maxUses { return "used_up" }
        return "active"
    }
}

/// What an operator asks for with `shop coupons create`.
public struct NewCoupon: Sendable, Equatable {
    public let code: String
    public let rule: CouponRule
    public let description: String?
    public let minSpendCents: Int64
    public let startsAt: Date?
    public let endsAt: Date?
    public let maxUses: Int?
    public let perUserLimit: Int?
    /// A category path, `花束/玫瑰`.
    public let categoryPath: String?

    public init(code: String, rule: CouponRule, description: String? = nil, minSpendCents: Int64 = 0,
                startsAt: Date? = nil, endsAt: Date? = nil, maxUses: Int? = nil, perUserLimit: Int? = nil,
                categoryPath: String? = nil) {
        self.code = code
        self.rule = rule
        self.description = description
        self.minSpendCents = minSpendCents
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.maxUses = maxUses
        self.perUserLimit = perUserLimit
        self.categoryPath = categoryPath
    }
}

/// A coupon applied to a cart or an order: its code, its description and the cents it takes off.
public struct AppliedCoupon: Sendable, Equatable {
    public let code: String
    public let description: String
    public let discountCents: Int64

    public init(code: String, description: String, discountCents: Int64) {
        self.code = code
        self.description = description
        self.discountCents = discountCents
    }
}

/// A line a coupon may apply to: its product (for the category) and what it costs.
struct PricedLine: Sendable {
    let productID: ProductID
    let amountCents: Int64
}

/// A change to a coupon (`PATCH /admin/coupons/{code}`); nil leaves a field as it is, `.some(nil)`
/// takes the end or the limit away.
public struct CouponChanges: Sendable, Equatable {
    public var endsAt: Date??
    public var maxUses: Int??
    public var disabled: Bool?

    public init(endsAt: Date?? = nil, maxUses: Int?? = nil, disabled: Bool? = nil) {
        self.endsAt = endsAt
        self.maxUses = maxUses
        self.disabled = disabled
    }
}

/// A coupon as the audit log keeps it: times in Unix seconds, the rule spelled out.
struct CouponSnapshot: Encodable {
    let code: String
    let description: String
    let percentOff: Int?
    let amountOffCents: Int64?
    let minSpendCents: Int64
    let startsAt: Int64?
    let endsAt: Int64?
    let maxUses: Int?
    let perUserLimit: Int?
    let categoryID: CategoryID?
    let uses: Int
    let disabledAt: Int64?

    init(_ coupon: Coupon) {
        code = coupon.code
        description = coupon.description
        switch coupon.rule {
        case .percentOff(let percent): (percentOff, amountOffCents) = (percent, nil)
        case .amountOff(let cents): (percentOff, amountOffCents) = (nil, cents)
        }
        minSpendCents = coupon.minSpendCents
        startsAt = coupon.startsAt.map { Int64($0.timeIntervalSince1970) }
        endsAt = coupon.endsAt.map { Int64($0.timeIntervalSince1970) }
        maxUses = coupon.maxUses
        perUserLimit = coupon.perUserLimit
        categoryID = coupon.categoryID
        uses = coupon.uses
        disabledAt = coupon.disabledAt.map { Int64($0.timeIntervalSince1970) }
    }
}
