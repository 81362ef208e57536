import Localization
import Foundation
import SQL

/// Operators' coupons: create, list, disable. Buyers use them through the cart and checkout.
public struct CouponService: Sendable {
    let pool: any Database
    let clock: Clock
    private let store = CouponStore()
    private let audit = AuditTrail()

    public static let maxDescriptionLength = 60
    /// Amounts and minimum spends an operator may set: up to 1,000,000 yuan.
    public static let maxCents: Int64 = 100_000_000
    public static let percentRange = 1...99

    public init(pool: any Database, clock: Clock) {
        self.pool = pool
        self.clock = clock
    }

    /// Creates a coupon (`coupon.create`); the code is unique whatever its case.
    public func create(_ new: NewCoupon, by actor: StaffActor) throws -> Coupon {
        let code = try CouponCode.normalized(new.code, field: "code")
        switch new.rule {
        case .percentOff(let percent):
            guard Self.percentRange.contains(percent) else { throw ValidationError("percent_off", .wholeNumberInRange, .range(Self.percentRange)) }
        case .amountOff(let cents):
            guard (1...Self.maxCents).contains(cents) else { throw ValidationError("amount_off", .range, Self.yuanRange(from: 1)) }
        }
        guard (0...Self.maxCents).contains(new.minSpendCents) else { throw ValidationError("min_spend", .range, Self.yuanRange(from: 0)) }
        if let maxUses = new.maxUses, !Self.maxUsesRange.contains(maxUses) {
            throw ValidationError("max_uses", .wholeNumberInRange, .range(Self.maxUsesRange))
        }
        if let perUser = new.perUserLimit, !(1...1_000).contains(perUser) {
            throw ValidationError("per_user", .wholeNumberInRange, .range(1...1_000))
        }
        if let startsAt = new.startsAt, let endsAt = new.endsAt, startsAt >= endsAt {
            throw ValidationError("starts", .notAbove, ["other": .verbatim("ends")])
        }
        let description = (new.description ?? Self.describe(new)).trimmedInput
        try Validate.length(description, 1...Self.maxDescriptionLength, field: "description")
        try Validate.printable(description, field: "description")
        let now = clock.unixNow
        return try pool.write { db in
            var category: CategoryID?
            if let path = new.categoryPath {
                guard let id = try store.category(path: path, db) else { throw CouponError.unknownCategory(path) }
                category = id
            }
            if try store.find(code: code, db) != nil { throw CouponError.codeTaken(code) }
            _ = try store.insert(new, code: code, description: description, category: category, at: now, db)
            guard let coupon = try store.find(code: code, db) else { throw CouponError.notFound(code) }
            try audit.record(actor, "coupon.create", target: "coupon:\(code)", after: CouponSnapshot(coupon), at: now, db)
            return coupon
        }
    }

    /// The newest coupons first.
    public func list(limit: Int = 200) throws -> [Coupon] {
        try pool.read { db in try store.list(limit: limit, db) }
    }

    /// Stops new uses of a coupon (orders that hold one keep it); `coupon.update`.
    public func disable(code text: String, by actor: StaffActor) throws -> Coupon {
        try update(code: text, CouponChanges(disabled: true), by: actor)
    }

    /// Changes a coupon's end, its number of uses, or whether it is disabled (`coupon.update`).
    /// Disabling one already disabled keeps the first time; `max_uses` never drops below the uses held.
    public func update(code text: String, _ changes: CouponChanges, by actor: StaffActor) throws -> Coupon {
        let code = try CouponCode.normalized(text, field: "code")
        if case let maxUses?? = changes.maxUses, !Self.maxUsesRange.contains(maxUses) {
            throw ValidationError("max_uses", .wholeNumberInRange, .range(Self.maxUsesRange))
        }
        let now = clock.unixNow
        return try pool.write { db in
            guard try store.lock(code: code, db), let before = try store.find(code: code, db) else { throw CouponError.notFound(code) }
            let endsAt = changes.endsAt ?? before.endsAt
            if let startsAt = before.startsAt, let endsAt, endsAt <= startsAt {
                throw ValidationError("ends_at", .notAbove, ["other": .verbatim("starts_at")])
            }
            let maxUses = changes.maxUses ?? before.maxUses
            if let maxUses, maxUses < before.uses {
                throw ValidationError("max_uses", .wholeNumberInRange, .range(max(1, before.uses)...Self.maxUsesRange.upperBound))
            }
            let disabledAt: Int64? = switch changes.disabled {
            case true?: before.disabledAt.map { Int64($0.timeIntervalSince1970) } ?? now
            case false?: nil
            case nil: before.disabledAt.map { Int64($0.timeIntervalSince1970) }
            }
            try store.update(code: code, endsAt: endsAt, maxUses: maxUses, disabledAt: disabledAt, db)
            guard let after = try store.find(code: code, db) else { throw CouponError.notFound(code) }
            try audit.record(actor, "coupon.update", target: "coupon:\(code)", before: CouponSnapshot(before),
                             after: CouponSnapshot(after), at: now, db)
            return after
        }
    }

    static let maxUsesRange = 1...100_000_000

    /// A description a buyer reads when the operator gave none: `满100减20`, `8.5折`, `花束 满200享9折`.
    static func describe(_ coupon: NewCoupon) -> String {
        let minimum = coupon.minSpendCents > 0 ? "满\(plain(coupon.minSpendCents))" : ""
        let rule = switch coupon.rule {
        case .percentOff(let percent):
            (minimum.isEmpty ? "" : "享") + (percent % 10 == 0 ? "\((100 - percent) / 10)折" : "\((100 - percent) / 10).\((100 - percent) % 10)折")
        case .amountOff(let cents): "减\(plain(cents))元"
        }
        let scope = coupon.categoryPath.map { "\($0) " } ?? ""
        return scope + minimum + rule
    }

    /// 12000 → "120", 12050 → "120.5", 12055 → "120.55".
    static func plain(_ cents: Int64) -> String {
        var text = Money.yuan(fromCents: cents)
        while text.hasSuffix("0") && text.contains(".") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func yuanRange(from cents: Int64) -> [String: LocalizedText] {
        ["min": .verbatim(Money.yuan(fromCents: cents)), "max": .verbatim(Money.yuan(fromCents: maxCents))]
    }
}
