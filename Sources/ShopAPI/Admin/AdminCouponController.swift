import Foundation
import HTTP
import ShopCore

/// The shop's coupons for staff: the list, new ones (the fields of `shop coupons create`, money in
/// cents) and changes of their end, their number of uses and whether they are disabled; audited.
struct AdminCouponController {
    let coupons: CouponService
    let clock: Clock

    struct CreateRequest: Decodable {
        let code: String
        let percentOff: Int?
        let amountOffCents: Int64?
        let description: String?
        let minSpendCents: Int64?
        let startsAt: Date?
        let endsAt: Date?
        let maxUses: Int?
        let perUserLimit: Int?
        let categoryPath: String?
    }

    struct UpdateRequest: Decodable {
        let endsAt: Date?
        let maxUses: Int?
        let disabled: Bool?
    }

    /// The service names fields as the command line does; the API spells them as its JSON.
    static let wireFields = ["amount_off": "amount_off_cents", "min_spend": "min_spend_cents", "starts": "starts_at",
                             "ends": "ends_at", "per_user": "per_user_limit"]

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/coupons", use: list)
        admin.post("/admin/coupons", use: create)
        admin.patch("/admin/coupons/:code", use: update)
    }

    /// Every coupon, newest first, with its state now.
    func list(_ request: Request, _ context: Context) throws -> Response {
        let now = clock.now
        return try .json(ItemsResponse(items: try coupons.list(limit: 1_000).map { AdminCouponResponse($0, now: now) }))
    }

    /// A new coupon → 201: exactly one of `percent_off` and `amount_off_cents`.
    func create(_ request: Request, _ context: Context) throws -> Response {
        let body = try AdminBody(request, allowed: ["code", "percent_off", "amount_off_cents", "description", "min_spend_cents",
                                                    "starts_at", "ends_at", "max_uses", "per_user_limit", "category_path"])
        try body.refuseNulls()
        let new = try request.decode(CreateRequest.self)
        let rule: CouponRule
        switch (new.percentOff, new.amountOffCents) {
        case (let percent?, nil): rule = .percentOff(percent)
        case (nil, let cents?): rule = .amountOff(cents: cents)
        default: throw HTTPError(AdminCatalogMessage.couponRuleRequired, field: "percent_off")
        }
        let coupon = try Self.wireNamed {
            try coupons.create(NewCoupon(code: new.code, rule: rule, description: new.description, minSpendCents: new.minSpendCents ?? 0,
                                         startsAt: new.startsAt, endsAt: new.endsAt, maxUses: new.maxUses, perUserLimit: new.perUserLimit,
                                         categoryPath: new.categoryPath), by: try context.staffActor())
        }
        return try .json(AdminCouponResponse(coupon, now: clock.now), status: .created)
    }

    /// `ends_at` and `max_uses` (null takes the end or the limit away), `disabled`.
    func update(_ request: Request, _ context: Context) throws -> Response {
        let code = try request.parameter("code")
        let body = try AdminBody(request, allowed: ["ends_at", "max_uses", "disabled"])
        if body.isNull("disabled") { throw ValidationError("disabled", .empty) }
        let change = try request.decode(UpdateRequest.self)
        let changes = CouponChanges(endsAt: body.keys.contains("ends_at") ? .some(change.endsAt) : nil,
                                    maxUses: body.keys.contains("max_uses") ? .some(change.maxUses) : nil,
                                    disabled: change.disabled)
        let coupon = try coupons.update(code: code, changes, by: try context.staffActor())
        return try .json(AdminCouponResponse(coupon, now: clock.now))
    }

    /// `body`, its validation errors naming the API's fields.
    static func wireNamed<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ValidationError {
            guard let field = wireFields[error.field] else { throw error }
            throw ValidationError(field, error.rule, error.limits)
        }
    }
}

/// A coupon on the wire, for staff.
struct AdminCouponResponse: Codable {
    let id: CouponID
    let code: String
    let description: String
    @ExplicitNull var percentOff: Int?
    @ExplicitNull var amountOffCents: Int64?
    let minSpendCents: Int64
    @ExplicitNull var startsAt: Date?
    @ExplicitNull var endsAt: Date?
    @ExplicitNull var maxUses: Int?
    @ExplicitNull var perUserLimit: Int?
    @ExplicitNull var categoryID: CategoryID?
    @ExplicitNull var categoryPath: String?
    let uses: Int
    let disabled: Bool
    @ExplicitNull var disabledAt: Date?
    /// `active`, `scheduled`, `expired`, `used_up` or `disabled`.
    let state: String
    let createdAt: Date

    init(_ coupon: Coupon, now: Date) {
        id = coupon.id
        code = coupon.code
        description = coupon.description
        switch coupon.rule {
        case .percentOff(let percent):
            percentOff = percent
            amountOffCents = nil
        case .amountOff(let cents):
            percentOff = nil
            amountOffCents = cents
        }
        minSpendCents = coupon.minSpendCents
        startsAt = coupon.startsAt
        endsAt = coupon.endsAt
        maxUses = coupon.maxUses
        perUserLimit = coupon.perUserLimit
        categoryID = coupon.categoryID
        categoryPath = coupon.categoryPath
        uses = coupon.uses
        disabled = coupon.disabledAt != nil
        disabledAt = coupon.disabledAt
        state = coupon.state(at: now)
        createdAt = coupon.createdAt
    }
}
