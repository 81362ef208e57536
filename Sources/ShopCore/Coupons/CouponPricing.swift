import Foundation
import SQL

/// The rules of a coupon against a set of lines, and what it takes off. All in integer cents:
///
/// - The *eligible subtotal* is what the lines it applies to cost (every line, or those of its
///   category and the categories under it); `min_spend` is compared with it.
/// - `percent_off` N takes floor(eligible × N / 100) cents (rounded down to the cent, in the
///   buyer's disfavour by less than one cent); `amount_off` takes min(amount, eligible).
/// - The discount never leaves the order below 1 cent (0.01 yuan): a payment provider cannot be
///   asked for nothing.
struct CouponPricing {
    private let store = CouponStore()

    /// The discount of `rule` on `eligible` cents of an order of `subtotal` cents.
    static func discount(_ rule: CouponRule, eligibleCents eligible: Int64, subtotalCents subtotal: Int64) -> Int64 {
        let raw: Int64 = switch rule {
        case .percentOff(let percent): eligible * Int64(percent) / 100
        case .amountOff(let cents): min(cents, eligible)
        }
        return max(0, min(raw, subtotal - 1))
    }

    /// The coupon's rules at `now` for these lines and (at checkout) this buyer; throws the first
    /// rule it breaks, checked in the order a buyer can do something about last.
    func apply(_ coupon: Coupon, to lines: [PricedLine], user: UserID?, at now: Date,
               _ db: any SQLConnection) throws -> AppliedCoupon {
        let code = coupon.code
        if coupon.disabledAt != nil { throw CouponError.disabled(code: code) }
        // not started: answered exactly like a code no coupon has, so guesses learn nothing
        if let startsAt = coupon.startsAt, now < startsAt { throw CouponError.unknown(code: code) }
        if let endsAt = coupon.endsAt, now >= endsAt { throw CouponError.expired(code: code, endsAt: endsAt) }
        if let maxUses = coupon.maxUses, coupon.uses >= maxUses { throw CouponError.usedUp(code: code) }
        if let user, let limit = coupon.perUserLimit, try store.uses(of: coupon.id, by: user, db) >= limit {
            throw CouponError.perUserLimitReached(code: code, limit: limit)
        }
        var eligible = lines
        if let category = coupon.categoryID {
            let tree = try store.subtree(of: category, db)
            var categories: [ProductID: CategoryID?] = [:]
            eligible = try lines.filter { line in
                if categories[line.productID] == nil { categories[line.productID] = .some(try store.category(of: line.productID, db)) }
                return categories[line.productID].flatMap { $0 }.map(tree.contains) ?? false
            }
            guard !eligible.isEmpty else { throw CouponError.notApplicable(code: code, category: coupon.categoryPath ?? "") }
        }
        let eligibleCents = eligible.reduce(Int64(0)) { $0 + $1.amountCents }
        guard eligibleCents >= coupon.minSpendCents else {
            throw CouponError.minSpendNotMet(code: code, minSpendCents: coupon.minSpendCents)
        }
        let subtotal = lines.reduce(Int64(0)) { $0 + $1.amountCents }
        return AppliedCoupon(code: code, description: coupon.description,
                             discountCents: Self.discount(coupon.rule, eligibleCents: eligibleCents, subtotalCents: subtotal))
    }
}

/// Coupon codes: 3 to 32 ASCII letters, digits, `-` or `_`, matched case-insensitively (kept in upper case).
public enum CouponCode {
    public static let lengths = 3...32

    /// The code in upper case; a `ValidationError` on `field` for anything else.
    public static func normalized(_ text: String, field: String = "coupon_code") throws -> String {
        let scalars = text.unicodeScalars
        guard lengths.contains(scalars.count),
              scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else { throw ValidationError(field, .couponCode, .range(lengths)) }
        return text.uppercased()
    }
}
