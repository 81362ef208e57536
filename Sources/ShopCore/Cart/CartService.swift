import SQL

/// The cart: add, change, select, remove, empty; never more than `cart.max_items` items in all.
/// The cap and stock checks run in the same transaction as the write, so racing requests
/// cannot pass the cap together.
///
/// Cart changes commit with `Durability.processCrash`: a crash of the server keeps them, a power
/// loss may lose the last moment's (the shopper adds the flowers again). A cart line is not
/// money; checkout, which reads the cart, commits with full durability, and that commit makes
/// every earlier cart change durable too. On PostgreSQL each change is one call of a cart function
/// (migrations 0046, 0047) that sets this durability for its own transaction (`writeAsOneCall`).
public struct CartService: Sendable {
    let pool: any Database
    let maxItems: Int
    let clock: Clock
    /// Refused codes per buyer and address: previews are limited like checkouts.
    let couponAttempts: CouponAttempts
    private let store = CartStore()
    /// Which delivery zone serves an address, for the checkout preview's fee.
    let areas: DeliveryAreas

    /// Quantities a request may name for one line: no more than the cap (`cart.max_items`) allows.
    static func lineQuantityRange(maxItems: Int) -> ClosedRange<Int> { 1...maxItems }

    public init(pool: any Database, maxItems: Int, clock: Clock, couponAttempts: CouponAttempts, regions: RegionDirectory = .china) {
        self.pool = pool
        areas = DeliveryAreas(regions: regions)
        self.maxItems = maxItems
        self.clock = clock
        self.couponAttempts = couponAttempts
    }

    public func cart(of user: UserID) throws -> Cart {
        try pool.read { db in Cart(lines: try store.lines(of: user, db)) }
    }

    /// The cart with a coupon applied to its selected, available lines, as checkout would apply
    /// it now (no use is taken); a code that does not apply is a `CouponError` saying why, and is
    /// counted against the buyer and `clientIP` (`CouponAttempts`). With `addressID` (one's own,
    /// else `AddressError.notFound`) the delivery fee to that address is added as checkout adds it
    /// (without a peak day's fee, which depends on the day); outside every zone is
    /// `DeliveryZoneError.outsideArea`.
    public func cart(of user: UserID, couponCode: String?, addressID: AddressID? = nil, clientIP: String) throws -> Cart {
        guard let couponCode else {
            guard let addressID else { return try cart(of: user) }
            return try pool.read { db in
                var cart = Cart(lines: try store.lines(of: user, db))
                cart.delivery = try delivery(of: cart, to: addressID, for: user, db)
                return cart
            }
        }
        let code = try CouponCode.normalized(couponCode)
        let now = clock.now
        let unixNow = clock.unixNow
        return try couponAttempts.counting(user: user, clientIP: clientIP, at: unixNow) {
            try pool.read { db in
                try couponAttempts.check(user: user, clientIP: clientIP, at: unixNow, db)
                var cart = Cart(lines: try store.lines(of: user, db))
                cart.coupon = try CouponRedemption().preview(code, lines: cart.checkoutLines, user: user, at: now, db)
                if let addressID { cart.delivery = try delivery(of: cart, to: addressID, for: user, db) }
                return cart
            }
        }
    }

    /// The zone serving `address` and its fee for the cart's selected goods after the discount.
    private func delivery(of cart: Cart, to address: AddressID, for user: UserID, _ db: any SQLConnection) throws -> CartDelivery {
        guard let address = try AddressStore().find(address, of: user, db) else { throw AddressError.notFound }
        let coverage = try areas.coverage(of: address, db)
        let goods = cart.selectedTotalCents - cart.discountCents
        return CartDelivery(coverage: coverage, feeCents: coverage.feeCents(forGoods: goods),
                            moreForFreeDeliveryCents: coverage.zone?.moreForFreeDelivery(goodsCents: goods))
    }

    /// Adds `quantity` of a SKU; a SKU already in the cart adds to its line. On PostgreSQL the
    /// lock, the checks and the write are one statement on the server (`cart_add`), with the same
    /// rules in the same order.
    public func add(_ sku: SKUID, quantity: Int, for user: UserID) throws -> Cart {
        try Self.validate(quantity, maxItems: maxItems)
        let now = clock.unixNow
        if pool.dialect == .postgresql {
            return try writeAsOneCall { db in
                Cart(lines: try store.addInOneStatement(sku, quantity: quantity, for: user, maxItems: maxItems,
                                                        lockKey: Self.lockKey(user), at: now, db))
            }
        }
        return try pool.write(durability: Self.durability) { db in
            try db.serialize(on: Self.lockKey(user))
            let (item, existing, total) = try store.adding(sku, for: user, db)
            guard let item, item.onSale else { throw CartError.skuNotFound }
            let lineQuantity = (existing?.quantity ?? 0) + quantity
            guard total + quantity <= maxItems else { throw CartError.limitExceeded(max: maxItems) }
            guard Int64(lineQuantity) <= item.stock else {
                throw CartError.outOfStock(skuID: sku, sku: item.label, available: item.stock)
            }
            if let existing {
                try store.setQuantity(existing.id, of: user, lineQuantity, at: now, db)
            } else {
                try store.insert(user: user, sku: sku, quantity: quantity, at: now, db)
            }
            return Cart(lines: try store.lines(of: user, ending: true, db))
        }
    }

    /// Sets a line's quantity and/or whether it is selected for checkout. On PostgreSQL one
    /// statement on the server (`cart_update`), with the same rules in the same order.
    public func update(_ line: CartItemID, quantity: Int?, selected: Bool?, for user: UserID) throws -> Cart {
        if let quantity { try Self.validate(quantity, maxItems: maxItems) }
        let now = clock.unixNow
        if pool.dialect == .postgresql {
            return try writeAsOneCall { db in
                Cart(lines: try store.updateInOneStatement(line, quantity: quantity, selected: selected, for: user,
                                                           maxItems: maxItems, lockKey: Self.lockKey(user), at: now, db))
            }
        }
        return try pool.write(durability: Self.durability) { db in
            try db.serialize(on: Self.lockKey(user))
            guard let current = try store.line(line, of: user, db) else { throw CartError.lineNotFound }
            if let quantity, quantity != current.quantity {
                if quantity > current.quantity {
                    try checkCap(adding: quantity - current.quantity, for: user, db)
                    guard let item = try store.purchasable(current.skuID, db), item.onSale else { throw CartError.skuNotFound }
                    guard Int64(quantity) <= item.stock else {
                        throw CartError.outOfStock(skuID: current.skuID, sku: item.label, available: item.stock)
                    }
                }
                try store.setQuantity(line, of: user, quantity, at: now, db)
            }
            if let selected { try store.setSelected(line, of: user, selected, at: now, db) }
            return Cart(lines: try store.lines(of: user, ending: true, db))
        }
    }

    /// Removes one of the buyer's lines (another buyer's is not found). On PostgreSQL one
    /// statement on the server (`cart_remove`).
    public func remove(_ line: CartItemID, for user: UserID) throws -> Cart {
        if pool.dialect == .postgresql {
            return try writeAsOneCall { db in Cart(lines: try store.removeInOneStatement(line, of: user, db)) }
        }
        return try pool.write(durability: Self.durability) { db in
            guard try store.delete(line, of: user, db) else { throw CartError.lineNotFound }
            return Cart(lines: try store.lines(of: user, ending: true, db))
        }
    }

    /// Empties the buyer's cart. On PostgreSQL one statement on the server (`cart_clear`).
    public func clear(for user: UserID) throws -> Cart {
        if pool.dialect == .postgresql {
            return try writeAsOneCall { db in
                try store.clearInOneStatement(user, db)
                return Cart(lines: [])
            }
        }
        return try pool.write(durability: Self.durability) { db in
            try store.clear(user, db)
            return Cart(lines: [])
        }
    }

    /// PostgreSQL: a cart change that is one call of a cart function (`cart_add`, `cart_update`,
    /// `cart_remove`, `cart_clear`; migrations 0046 and 0047). Each function sets its own
    /// transaction's durability first (`set_config('synchronous_commit', 'off', true)`: what
    /// `durability`, `.processCrash`, asks of PostgreSQL), so the transaction asks for nothing
    /// more: the pipeline is the call alone, run as its implicit transaction, one statement on
    /// the server. A cart change stays exactly as durable as on SQLite's path.
    private func writeAsOneCall<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try pool.write(durability: .powerLoss, body)
    }

    /// How durable a cart change is when it is acknowledged (see the type's comment).
    static let durability = Durability.processCrash

    /// The key that serialises a buyer's cart changes (and checkout, which empties the cart).
    static func lockKey(_ user: UserID) -> String { "cart:\(user)" }

    private func checkCap(adding extra: Int, for user: UserID, _ db: any SQLConnection) throws {
        guard try store.totalQuantity(of: user, db) + extra <= maxItems else { throw CartError.limitExceeded(max: maxItems) }
    }

    /// A line's quantity, `1...maxItems`; the message names the configured cap.
    static func validate(_ quantity: Int, maxItems: Int) throws {
        let range = lineQuantityRange(maxItems: maxItems)
        guard range.contains(quantity) else {
            throw ValidationError("quantity", .wholeNumberInRange, .range(range))
        }
    }
}
