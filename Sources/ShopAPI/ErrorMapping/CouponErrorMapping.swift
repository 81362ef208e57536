import Foundation
import HTTP
import Localization
import ShopCore

/// The messages of a refused coupon: all 422 `coupon_invalid`, each saying which rule it broke
/// (an unknown code and one not started yet alike: `unknown`).
enum CouponMessage: String, ErrorMessage {
    case unknown, disabled, expired, minSpendNotMet, notApplicable, usedUp, perUserLimitReached

    var status: Status { .unprocessableEntity }
    var code: String { "coupon_invalid" }

    var template: LocalizedText {
        switch self {
        case .unknown:
            LocalizedText(zh: "优惠码 {code} 无效或尚未生效。", en: "Coupon {code} does not exist or is not valid yet.")
        case .disabled: LocalizedText(zh: "优惠码 {code} 已停用。", en: "Coupon {code} has been withdrawn.")
        case .expired:
            LocalizedText(zh: "优惠码 {code} 已于 {ends}（北京时间）过期。", en: "Coupon {code} expired at {ends} (China time).")
        case .minSpendNotMet:
            LocalizedText(zh: "优惠码 {code} 需满 {min_spend} 元才能使用。",
                          en: "Coupon {code} needs a spend of at least {min_spend} yuan on the items it applies to.")
        case .notApplicable:
            LocalizedText(zh: "优惠码 {code} 仅限“{category}”分类的商品使用。",
                          en: "Coupon {code} applies only to items in the category \"{category}\".")
        case .usedUp: LocalizedText(zh: "优惠码 {code} 已被领完。", en: "Coupon {code} has been used up.")
        case .perUserLimitReached:
            LocalizedText(zh: "优惠码 {code} 每人限用 {limit} 次，你已用完。",
                          en: "Coupon {code} is limited to {limit} use(s) per buyer, and you have used yours.")
        }
    }
}

extension ErrorMapping {
    /// Coupons: 422 `coupon_invalid` on `coupon_code`, the message naming the rule; 429
    /// `too_many_attempts` after too many refused codes.
    @Sendable static func coupon(_ error: any Error) -> HTTPError? {
        guard let error = error as? CouponError else { return nil }
        if let admin = adminCoupon(error) { return admin }
        let (message, arguments): (CouponMessage, [String: LocalizedText])
        switch error {
        case .unknown(let code), .notFound(let code):
            (message, arguments) = (.unknown, ["code": .verbatim(code)])
        case .disabled(let code):
            (message, arguments) = (.disabled, ["code": .verbatim(code)])
        case .expired(let code, let endsAt):
            (message, arguments) = (.expired, ["code": .verbatim(code), "ends": .verbatim(ShopTime.minute(endsAt))])
        case .minSpendNotMet(let code, let minSpend):
            (message, arguments) = (.minSpendNotMet, ["code": .verbatim(code), "min_spend": .verbatim(Money.yuan(fromCents: minSpend))])
        case .notApplicable(let code, let category):
            (message, arguments) = (.notApplicable, ["code": .verbatim(code), "category": .verbatim(category)])
        case .usedUp(let code):
            (message, arguments) = (.usedUp, ["code": .verbatim(code)])
        case .perUserLimitReached(let code, let limit):
            (message, arguments) = (.perUserLimitReached, ["code": .verbatim(code), "limit": .verbatim(String(limit))])
        case .tooManyAttempts(let seconds):
            return HTTPError(.tooManyAttempts, ["seconds": .verbatim(String(seconds))], retryAfter: seconds)
        case .codeTaken, .unknownCategory:
            return nil // operators' errors: `adminCoupon` answers them
        }
        return HTTPError(message.status, code: message.code, message: message.template.filling(arguments), field: "coupon_code")
    }
}
