import Foundation
import SQL

/// A coupon code used inside a caller's transaction: previewed on the cart, redeemed at checkout
/// (one use taken, exactly, however many checkouts race for the last one).
struct CouponRedemption {
    private let store = CouponStore()
    private let pricing = CouponPricing()

    struct Redeemed {
        let coupon: Coupon
        let applied: AppliedCoupon
    }

    /// What the code would take off these lines now, without taking a use.
    func preview(_ code: String, lines: [PricedLine], user: UserID, at now: Date, _ db: any SQLConnection) throws -> AppliedCoupon {
        guard let coupon = try store.find(code: code, db) else { throw CouponError.unknown(code: code) }
        return try pricing.apply(coupon, to: lines, user: user, at: now, db)
    }

    /// Checks the code's rules and takes one use. The buyer's checkouts are serialised by the
    /// caller, so the per-buyer count is exact; the guarded UPDATE makes the overall count exact.
    func redeem(_ code: String, lines: [PricedLine], user: UserID, at now: Int64, _ db: any SQLConnection) throws -> Redeemed {
        guard let coupon = try store.find(code: code, db) else { throw CouponError.unknown(code: code) }
        let applied = try pricing.apply(coupon, to: lines, user: user, at: Date(timeIntervalSince1970: TimeInterval(now)), db)
        guard try store.takeUse(of: coupon.id, db) else {
            // another checkout took the last use, or an operator disabled it, since it was read
            if try store.find(code: code, db)?.disabledAt != nil { throw CouponError.disabled(code: code) }
            throw CouponError.usedUp(code: code)
        }
        return Redeemed(coupon: coupon, applied: applied)
    }

    /// Ties the use to the order just inserted and stamps the order with it.
    func record(_ redeemed: Redeemed, order: OrderID, user: UserID, at now: Int64, _ db: any SQLConnection) throws {
        try store.recordUse(of: redeemed.coupon, applied: redeemed.applied, order: order, user: user, at: now, db)
    }

    /// The order was cancelled before shipping: its use (if any) goes back.
    func giveBack(order: OrderID, at now: Int64, _ db: any SQLConnection) throws {
        try store.giveBack(order: order, at: now, db)
    }
}
