import Foundation

/// Why a coupon code was refused (422 `coupon_invalid`) or an operator's coupon command failed;
/// nothing changed.
public enum CouponError: Error, Equatable, Sendable {
    /// No coupon has this code.
    case unknown(code: String)
    /// An operator disabled it.
    case disabled(code: String)
    /// It applies from `startsAt` on.
    case notYetValid(code: String, startsAt: Date)
    /// It stopped applying at `endsAt`.
    case expired(code: String, endsAt: Date)
    /// The lines it applies to cost less than `minSpendCents`.
    case minSpendNotMet(code: String, minSpendCents: Int64)
    /// None of the lines are of the category it is limited to.
    case notApplicable(code: String, category: String)
    /// Every one of its `max_uses` is taken.
    case usedUp(code: String)
    /// This buyer has used it `limit` times already.
    case perUserLimitReached(code: String, limit: Int)

    // Operators (`shop coupons`)
    /// A coupon with this code exists already (codes are case-insensitive).
    case codeTaken(String)
    /// `--category` names no category.
    case unknownCategory(String)
    /// `disable` of a code no coupon has.
    case notFound(String)
}
