import Foundation

/// Why a coupon code was refused (422 `coupon_invalid`) or an operator's coupon command failed;
/// nothing changed.
public enum CouponError: Error, Equatable, Sendable {
    /// No coupon has this code, or none a buyer may know of yet: one that has not started is told
    /// apart from a guess by nothing, so unannounced codes cannot be found by guessing.
    case unknown(code: String)
    /// An operator disabled it.
    case disabled(code: String)
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
    /// This buyer or this client address had too many codes refused lately (429
    /// `too_many_attempts`); `retryAfter` seconds until the oldest refusal leaves the window.
    case tooManyAttempts(retryAfter: Int)

    // Operators (`shop coupons`)
    /// A coupon with this code exists already (codes are case-insensitive).
    case codeTaken(String)
    /// `--category` names no category.
    case unknownCategory(String)
    /// `disable` of a code no coupon has.
    case notFound(String)
}
