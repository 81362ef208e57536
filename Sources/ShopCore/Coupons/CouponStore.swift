import Foundation
import SQL

/// SQL for coupons and their uses; every statement runs in a caller's transaction.
struct CouponStore {
    static let columns: SQL = """
        c.id, c.code, c.description, c.kind, c.amount, c.min_spend_cents, c.starts_at, c.ends_at, c.max_uses,
        c.per_user_limit, c.category_id, k.path AS category_path, c.uses, c.disabled_at, c.created_at
        """

    func insert(_ coupon: NewCoupon, code: String, description: String, category: CategoryID?, at now: Int64,
                _ db: any SQLConnection) throws -> CouponID {
        let (kind, amount): (String, Int64) = switch coupon.rule {
        case .percentOff(let percent): ("percent_off", Int64(percent))
        case .amountOff(let cents): ("amount_off", cents)
        }
        return try db.insert("""
            INSERT INTO coupons (code, description, kind, amount, min_spend_cents, starts_at, ends_at, max_uses,
                                 per_user_limit, category_id, created_at)
            VALUES (\(code), \(description), \(kind), \(amount), \(coupon.minSpendCents), \(coupon.startsAt), \(coupon.endsAt),
                    \(coupon.maxUses), \(coupon.perUserLimit), \(category), \(now))
            """, returning: CouponID.self)
    }

    /// The coupon with this (upper-case) code.
    func find(code: String, _ db: any SQLConnection) throws -> Coupon? {
        try db.queryOne("""
            SELECT \(Self.columns) FROM coupons c LEFT JOIN categories k ON k.id = c.category_id WHERE c.code = \(code)
            """).map(Self.coupon)
    }

    /// Every coupon, newest first; at most `limit`.
    func list(limit: Int, _ db: any SQLConnection) throws -> [Coupon] {
        try db.query("""
            SELECT \(Self.columns) FROM coupons c LEFT JOIN categories k ON k.id = c.category_id
            ORDER BY c.created_at DESC, c.id DESC LIMIT \(limit)
            """).map(Self.coupon)
    }

    /// Takes the coupon's row for this transaction (PostgreSQL: a checkout taking a use waits);
    /// false when there is no such coupon.
    func lock(code: String, _ db: any SQLConnection) throws -> Bool {
        try db.run("UPDATE coupons SET uses = uses WHERE code = \(code)") == 1
    }

    func update(code: String, endsAt: Date?, maxUses: Int?, disabledAt: Int64?, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE coupons SET ends_at = \(endsAt), max_uses = \(maxUses), disabled_at = \(disabledAt) WHERE code = \(code)
            """)
    }

    func category(path: String, _ db: any SQLConnection) throws -> CategoryID? {
        try db.scalar("SELECT id FROM categories WHERE path = \(path)", as: CategoryID.self)
    }

    /// The category and every category under it.
    func subtree(of category: CategoryID, _ db: any SQLConnection) throws -> Set<CategoryID> {
        Set(try db.query("""
            WITH RECURSIVE tree (id) AS (
                SELECT id FROM categories WHERE id = \(category)
                UNION ALL
                SELECT c.id FROM categories c JOIN tree t ON c.parent_id = t.id
            )
            SELECT id FROM tree
            """).map { try $0.decode("id", as: CategoryID.self) })
    }

    func category(of product: ProductID, _ db: any SQLConnection) throws -> CategoryID? {
        try db.scalar("SELECT category_id FROM products WHERE id = \(product)", as: CategoryID.self)
    }

    /// How many orders of this buyer hold a use of the coupon now.
    func uses(of coupon: CouponID, by user: UserID, _ db: any SQLConnection) throws -> Int {
        Int(try db.scalarInt("""
            SELECT COUNT(*) FROM coupon_uses WHERE coupon_id = \(coupon) AND user_id = \(user) AND released_at IS NULL
            """) ?? 0)
    }

    /// Takes one use if one is left and the coupon is not disabled: a guarded UPDATE, so racing
    /// checkouts (on PostgreSQL, blocked on the row and re-checking the guard) never pass `max_uses`.
    func takeUse(of coupon: CouponID, _ db: any SQLConnection) throws -> Bool {
        try db.run("""
            UPDATE coupons SET uses = uses + 1
            WHERE id = \(coupon) AND disabled_at IS NULL AND (max_uses IS NULL OR uses < max_uses)
            """) == 1
    }

    /// Records the use on the order and stamps the order with the coupon and its discount: both
    /// writes held to go with the next statement (`runLater`), only their failure matters.
    func recordUse(of coupon: Coupon, applied: AppliedCoupon, order: OrderID, user: UserID, at now: Int64,
                   _ db: any SQLConnection) throws {
        try db.runLater("""
            INSERT INTO coupon_uses (order_id, coupon_id, user_id, discount_cents, created_at)
            VALUES (\(order), \(coupon.id), \(user), \(applied.discountCents), \(now))
            """)
        try db.runLater("""
            UPDATE orders SET discount_cents = \(applied.discountCents), coupon_code = \(applied.code),
                              coupon_description = \(applied.description)
            WHERE id = \(order)
            """)
    }

    /// Gives the order's use back, once: its coupon may be used again.
    func giveBack(order: OrderID, at now: Int64, _ db: any SQLConnection) throws {
        guard let coupon = try db.scalar("""
            SELECT coupon_id FROM coupon_uses WHERE order_id = \(order) AND released_at IS NULL
            """, as: CouponID.self) else { return }
        guard try db.run("UPDATE coupon_uses SET released_at = \(now) WHERE order_id = \(order) AND released_at IS NULL") == 1 else {
            return
        }
        try db.run("UPDATE coupons SET uses = uses - 1 WHERE id = \(coupon) AND uses > 0")
    }

    static func coupon(_ row: Row) throws -> Coupon {
        let kind: String = try row.decode("kind")
        let amount: Int64 = try row.decode("amount")
        let rule: CouponRule
        switch kind {
        case "percent_off": rule = .percentOff(Int(amount))
        case "amount_off": rule = .amountOff(cents: amount)
        default: throw SQLValueMismatch(expected: "a coupon kind")
        }
        return Coupon(id: try row.decode("id"), code: try row.decode("code"), description: try row.decode("description"),
                      rule: rule, minSpendCents: try row.decode("min_spend_cents"), startsAt: try row.decode("starts_at"),
                      endsAt: try row.decode("ends_at"), maxUses: try row.decode("max_uses"),
                      perUserLimit: try row.decode("per_user_limit"), categoryID: try row.decode("category_id"),
                      categoryPath: try row.decode("category_path"), uses: try row.decode("uses"),
                      disabledAt: try row.decode("disabled_at"), createdAt: try row.decode("created_at"))
    }
}
