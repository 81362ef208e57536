import Crypto
import Foundation
import SQL

/// Checkout and the order life cycle, for buyers and operators.
public struct OrderService: Sendable {
    let pool: any Database
    let settings: Config.Orders
    /// The cart's cap (`cart.max_items`), which binds an order too, from the cart or buy-now.
    let maxItems: Int
    let clock: Clock
    let random: SecureRandom
    /// Which days an order can be delivered on (`orders.same_day_cutoff`, `orders.closed_dates`, ...).
    let delivery: DeliveryCalendar
    /// Refused codes per buyer and address: a checkout with a code is limited like a preview.
    let couponAttempts: CouponAttempts
    let orders = OrderStore()
    private let stock = StockStore()
    let lifecycle = OrderLifecycle()
    private let carts = CartStore()
    let refunds = RefundStore()
    private let coupons = CouponRedemption()
    private let slotLoad = SlotLoadStore()
    /// The outbox the paid, shipped and delivered notices go into; nil: none are written.
    let notices: Notices?
    /// Which delivery zone serves an address (none configured: every address, free).
    let areas: DeliveryAreas
    /// Each address's division path at its last checkout here: its zone is then asked in the opening round trip.
    private let addressPaths = AddressPaths()

    public static let maxLines = 50
    public static let maxNoteLength = 200
    public static let maxCardMessageLength = 200
    public static let maxCardSignatureLength = 30

    /// `timeZone` (`app.timezone`) is where delivery days are counted.
    public init(pool: any Database, settings: Config.Orders, maxItems: Int, clock: Clock, random: SecureRandom,
                couponAttempts: CouponAttempts, timeZone: TimeZone = TimeZone(identifier: "Asia/Shanghai") ?? ShopTime.zone,
                notices: Notices? = nil, regions: RegionDirectory = .china) {
        self.pool = pool
        self.notices = notices
        self.settings = settings
        self.maxItems = maxItems
        self.clock = clock
        self.random = random
        self.couponAttempts = couponAttempts
        delivery = DeliveryCalendar(settings, timeZone: timeZone)
        areas = DeliveryAreas(regions: regions)
    }

    /// Places an order from the selected cart lines or from "buy now" items, in one transaction:
    /// catalogue prices now, address snapshot, stock taken with a guard that never goes below zero,
    /// checked-out cart lines removed. The same key and request again return the same order.
    /// An order holds at most `cart.max_items` items, and a buyer at most `orders.max_unpaid_per_user`
    /// unpaid orders, counted inside the write so racing checkouts cannot pass the limit together.
    /// A coupon code takes one use of its coupon in the same transaction (see `CouponRedemption`); a
    /// refused code is counted against the buyer and `clientIP` (`CouponAttempts`).
    public func checkout(_ request: CheckoutRequest, idempotencyKey key: IdempotencyKey, for user: UserID,
                         clientIP: String) throws -> Checkout {
        let note = (request.note ?? "").trimmedInput
        try Validate.length(note, 0...Self.maxNoteLength, field: "note")
        try Validate.printable(note, field: "note", allowing: Validate.lineFeed)
        if let items = request.items {
            guard (1...Self.maxLines).contains(items.count) else {
                throw ValidationError("items", .lineCount, .range(1...Self.maxLines))
            }
            for item in items { try CartService.validate(item.quantity, maxItems: maxItems) }
        }
        let couponCode = try request.couponCode.map { try CouponCode.normalized($0) }
        // the request as it will be carried out: a note differing only in blanks, or a code only in case, is the same request
        let checked = CheckoutRequest(addressID: request.addressID, note: note, items: request.items, couponCode: couponCode,
                                      delivery: try Self.validated(request.delivery), anonymousSender: request.anonymousSender,
                                      notifyRecipient: request.notifyRecipient)
        let now = clock.unixNow
        guard couponCode != nil else { return try place(checked, key: key, for: user, clientIP: clientIP, at: now) }
        return try couponAttempts.counting(user: user, clientIP: clientIP, at: now) {
            try place(checked, key: key, for: user, clientIP: clientIP, at: now)
        }
    }

    /// `checkout`'s transaction, for a request already validated and normalised.
    private func place(_ request: CheckoutRequest, key: IdempotencyKey, for user: UserID, clientIP: String,
                       at now: Int64) throws -> Checkout {
        let fingerprint = Digest.sha256Hex(request.fingerprint)
        let payDeadline = now + Int64(settings.paymentTimeoutMinutes) * 60
        var attempts = 0
        while true {
            do {
                return try place(request, key: key, fingerprint: fingerprint, for: user, clientIP: clientIP, at: now,
                                 payDeadline: payDeadline)
            } catch let taken as NumberTaken {
                // a number or tracking token drawn twice (one chance in 10^10 a day): drawn again in a new transaction
                attempts += 1
                guard attempts < Self.placingAttempts else { throw taken.underlying }
            }
        }
    }

    /// How many times a checkout is placed when its order number or tracking token was taken.
    static let placingAttempts = 5

    /// PostgreSQL refused the order's single-statement INSERT for a unique value: the number or
    /// the tracking token, both drawn at random (nothing else the checkout writes can clash under
    /// the buyer's lock). The transaction is rolled back and placed again.
    private struct NumberTaken: Error {
        let underlying: any Error
    }

    /// `place`'s one transaction; a replay of an order placed before is read after it, rolled back
    /// (`Replayed`), since its opening round trip may have taken stock already.
    private func place(_ request: CheckoutRequest, key: IdempotencyKey, fingerprint: String, for user: UserID,
                       clientIP: String, at now: Int64, payDeadline: Int64) throws -> Checkout {
        do {
            return try placeOnce(request, key: key, fingerprint: fingerprint, for: user, clientIP: clientIP, at: now,
                                 payDeadline: payDeadline)
        } catch let replayed as Replayed {
            guard let order = try pool.read({ db in try orders.find(replayed.order, db) }) else { throw OrderError.notFound }
            return Checkout(order: order, replayed: true)
        }
    }

    /// The key was used before, for the same request: `order` is its answer. Thrown out of the
    /// checkout's transaction to roll back whatever its opening round trip took.
    private struct Replayed: Error {
        let order: OrderID
    }

    /// `place`'s one transaction, for a request that is not a replay.
    private func placeOnce(_ request: CheckoutRequest, key: IdempotencyKey, fingerprint: String, for user: UserID,
                           clientIP: String, at now: Int64, payDeadline: Int64) throws -> Checkout {
        let note = request.note ?? ""
        let couponCode = request.couponCode
        let wish = request.delivery
        // "buy now": the SKUs are known before anything is read (one SKU on several lines is one
        // line; past the cap, the total check below refuses it)
        var wanted: [(sku: SKUID, quantity: Int)] = []
        for item in request.items ?? [] {
            if let index = wanted.firstIndex(where: { $0.sku == item.skuID }) {
                wanted[index].quantity += item.quantity
            } else {
                wanted.append((item.skuID, item.quantity))
            }
        }
        let guessedPath = addressPaths.guess(request.addressID)
        return try pool.write { db in
            // one checkout of a buyer at a time: the unpaid count, the key and the cart it empties
            // Round trips matter on PostgreSQL (each one waits on the network): the lock goes with the
            // opening read, and so do the zone of the address's division path as this node last saw
            // it, the cart's lines, or the stock of "buy now" (taken before the checks it follows:
            // a refusal, or a replay, rolls the transaction back with it). Writes whose answer is not
            // needed go with the next statement (`runLater`), and the order comes back from its INSERT
            // rather than being read again; without a coupon that INSERT writes the lines and the key
            // too, and goes with the COMMIT.
            try db.serialize(on: CartService.lockKey(user))
            var opening = [orders.checkoutStartQuery(user: user, key: key, address: request.addressID)]
            let guessedZone = guessedPath.map { areas.coverageQuery(listingAny: $0) }
            if let guessedZone { opening.append(guessedZone.sql) }
            if request.items == nil { opening.append(carts.linesQuery(of: user)) }
            // Stock is taken in SKU id order, so two concurrent checkouts on PostgreSQL lock rows in
            // the same order and cannot deadlock; the order keeps the buyer's line order.
            var ordered = wanted.sorted(by: { $0.sku.rawValue < $1.sku.rawValue })
            var withinLimit = wanted.reduce(0, { $0 + $1.quantity }) <= maxItems
            let stockFirst = request.items != nil && withinLimit
            if stockFirst { opening += ordered.map { stock.takingForSale($0.quantity, of: $0.sku) } }
            var answers = try db.queries(opening)[...]
            let start = try orders.checkoutStart(answers.removeFirst())
            if let existing = start.replay {
                guard existing.hash == fingerprint else { throw OrderError.idempotencyKeyReused }
                throw Replayed(order: existing.order)
            }
            if couponCode != nil { try couponAttempts.check(user: user, clientIP: clientIP, at: now, db) }
            guard start.unpaid < settings.maxUnpaidPerUser else {
                throw OrderError.tooManyUnpaidOrders(max: settings.maxUnpaidPerUser)
            }
            guard let address = start.address else { throw AddressError.notFound }

            let path = areas.path(of: address)
            addressPaths.note(path, of: address.id)
            // the zone asked with the opening read is the address's only if its path is still the one guessed
            var zoneRows: [Row]? = nil
            if guessedZone != nil {
                let rows = answers.removeFirst()
                if guessedPath == path { zoneRows = rows }
            }
            var cartLines: [CartItemID] = []
            if request.items == nil {
                for line in try answers.removeFirst().map(CartStore.cartLine) where line.selected {
                    wanted.append((line.skuID, line.quantity))
                    cartLines.append(line.id)
                }
                ordered = wanted.sorted(by: { $0.sku.rawValue < $1.sku.rawValue })
                withinLimit = wanted.reduce(0, { $0 + $1.quantity }) <= maxItems
            }
            // What the opening round trip could not ask, in one more (a pipeline on PostgreSQL): the
            // zone when this node did not know the address's path, the stock of a cart's lines. The
            // refusals keep their order: outside every delivery zone, nothing to order, past the cap,
            // then the first SKU short of stock; whatever stock was taken before a refusal is given
            // back with the transaction's rollback.
            let zone = areas.coverageQuery(listingAny: path)
            let takeStock = !stockFirst && !wanted.isEmpty && withinLimit
            let more = (zoneRows == nil ? [zone.sql] : []) + (takeStock ? ordered.map { stock.takingForSale($0.quantity, of: $0.sku) } : [])
            if !more.isEmpty {
                var asked = try db.queries(more)[...]
                if zoneRows == nil { zoneRows = asked.removeFirst() }
                answers += asked
            }
            let coverage = try areas.coverage(zone, rows: zoneRows ?? [])
            guard !wanted.isEmpty else { throw OrderError.nothingToOrder }
            guard withinLimit else { throw OrderError.itemLimitExceeded(max: maxItems) }

            var taken: [SKUID: StockStore.Priced] = [:]
            for ((sku, _), rows) in zip(ordered, answers) {
                guard let row = rows.first else { throw try stock.refusal(of: sku, db) }
                taken[sku] = try StockStore.taken(row)
            }
            // the day: any next_day product keeps the whole order from going out today
            let nextDayOnly = taken.values.contains { $0.delivery == .nextDay } || !coverage.sameDay
            let (day, slot, holdsSlot) = try deliverySlot(for: wish, nextDayOnly: nextDayOnly, at: now, db)
            let newItems: [OrderStore.NewItem] = wanted.compactMap { sku, quantity in
                taken[sku].map { .init(skuID: sku, productID: $0.productID, title: $0.title, skuName: $0.skuName,
                                       priceCents: $0.priceCents, quantity: quantity) }
            }
            let subtotal = newItems.reduce(Int64(0)) { $0 + $1.priceCents * Int64($1.quantity) }
            let redeemed = try couponCode.map { code in
                try coupons.redeem(code, lines: newItems.map { PricedLine(productID: $0.productID, amountCents: $0.priceCents * Int64($0.quantity)) },
                                   user: user, at: now, db)
            }
            // a coupon discounts the goods, never the delivery fee; the zone's free-over compares with the goods after it
            let goods = subtotal - (redeemed?.applied.discountCents ?? 0)
            let deliveryFee = coverage.feeCents(forGoods: goods) + (delivery.isPeak(day) ? Int64(settings.peakFeeCents) : 0)
            let total = goods + deliveryFee
            let snapshot = AddressSnapshot(recipient: address.recipient, phone: address.phone, province: address.province,
                                           city: address.city, district: address.district, detail: address.detail,
                                           postalCode: address.postalCode)
            let order = OrderStore.NewOrder(number: number(at: now), user: user, totalCents: total, note: note,
                                            address: snapshot, createdAt: now, payDeadline: payDeadline,
                                            delivery: OrderDelivery(date: day, slot: slot, cardMessage: wish.cardMessage,
                                                                    cardSignature: wish.cardSignature),
                                            deliveryFeeCents: deliveryFee, holdsSlot: holdsSlot,
                                            trackingToken: TrackingToken.make(random),
                                            anonymousSender: request.anonymousSender, notifyRecipient: request.notifyRecipient)
            try carts.deleteLater(cartLines, of: user, db)
            guard let redeemed else {
                // the order, its lines and its key, with the commit (one round trip on PostgreSQL)
                let row: Row
                do {
                    row = try orders.insertPlaced(order, items: newItems, key: key, hash: fingerprint,
                                                  renumber: { number(at: now) }, db)
                } catch let error as any SQLError where error.isUniqueViolation {
                    throw NumberTaken(underlying: error)
                }
                return Checkout(order: try orders.placed(row, items: newItems), replayed: false)
            }
            let id: OrderID = try insert(order, db).decode("id")
            try orders.insertLater(newItems, of: id, db)
            try coupons.record(redeemed, order: id, user: user, at: now, db)
            try orders.rememberKey(user: user, key: key, hash: fingerprint, order: id, at: now, db)
            // the discount is written on the order after its INSERT
            guard let row = try orders.row(id, db) else { throw OrderError.notFound }
            return Checkout(order: try orders.placed(row, items: newItems), replayed: false)
        }
    }

    /// The day and slot to deliver on, and whether a place of the slot was taken for it. Without a
    /// capacity (`orders.slot_capacity` 0) the wish as the calendar allows it. With one, the slots
    /// already full are not offered, a wish without a slot gets the day's first slot with room, and
    /// the place is taken in this transaction; the last place lost to a racing checkout is
    /// `DeliveryUnavailable` naming the earliest day that still has room.
    private func deliverySlot(for wish: DeliveryRequest, nextDayOnly: Bool, at now: Int64,
                              _ db: any SQLConnection) throws -> (CalendarDay, DeliverySlot?, Bool) {
        let moment = Date(timeIntervalSince1970: TimeInterval(now))
        let capacity = settings.slotCapacity
        guard capacity > 0 else {
            return (try delivery.resolve(wish.date, slot: wish.slot, at: moment, nextDayOnly: nextDayOnly), wish.slot, false)
        }
        var full = try slotLoad.full(capacity: capacity, in: delivery.window(at: moment), db)
        let day = try delivery.resolve(wish.date, slot: wish.slot, at: moment, nextDayOnly: nextDayOnly, full: full)
        for slot in wish.slot.map({ [$0] }) ?? delivery.openSlots(on: day, at: moment, nextDayOnly: nextDayOnly, full: full) {
            if try slotLoad.take(DaySlot(date: day, slot: slot), capacity: capacity, db) { return (day, slot, true) }
            full.insert(DaySlot(date: day, slot: slot))
        }
        throw DeliveryUnavailable(field: wish.slot == nil ? "delivery_date" : "delivery_slot",
                                  earliest: delivery.earliest(at: moment, nextDayOnly: nextDayOnly, full: full))
    }

    /// The card trimmed, empty parts dropped, within their limits and free of control characters.
    static func validated(_ wish: DeliveryRequest) throws -> DeliveryRequest {
        let message = wish.cardMessage?.trimmedInput ?? ""
        let signature = wish.cardSignature?.trimmedInput ?? ""
        try Validate.length(message, 0...maxCardMessageLength, field: "card_message")
        try Validate.printable(message, field: "card_message", allowing: Validate.lineFeed)
        try Validate.length(signature, 0...maxCardSignatureLength, field: "card_signature")
        try Validate.printable(signature, field: "card_signature")
        return DeliveryRequest(date: wish.date, slot: wish.slot, cardMessage: message.isEmpty ? nil : message,
                               cardSignature: signature.isEmpty ? nil : signature)
    }

    /// The days (and slots) an order of these SKUs could be delivered on if placed now; an
    /// unknown or off-sale SKU is `skuNotFound`. No SKUs: an order of same-day products.
    public func deliveryDays(for skus: [SKUID]) throws -> [DeliveryDay] {
        let now = clock.now
        return try pool.read { db in try deliveryDays(for: skus, sameDay: true, at: now, db) }
    }

    /// `deliveryDays(for:)` inside a transaction; `sameDay` false (a zone without same-day
    /// delivery) keeps today out as a `next_day` product does.
    func deliveryDays(for skus: [SKUID], sameDay: Bool, at now: Date, _ db: any SQLConnection) throws -> [DeliveryDay] {
        var nextDayOnly = !sameDay
        for sku in skus {
            guard let priced = try stock.priced(sku, db), priced.onSale else { throw OrderError.skuNotFound(sku) }
            if priced.delivery == .nextDay { nextDayOnly = true }
        }
        let full = settings.slotCapacity > 0
            ? try slotLoad.full(capacity: settings.slotCapacity, in: delivery.window(at: now), db) : []
        return delivery.days(at: now, nextDayOnly: nextDayOnly, full: full)
    }

    /// Operators: the florist's worklist for `day`, by slot, with the cards; `statuses` nil means the
    /// orders to make (paid, shipped, delivered or completed), not those unpaid or cancelled.
    public func toDeliver(on day: CalendarDay, statuses: [OrderStatus]? = nil, limit: Int = 10_000) throws -> [Order] {
        try pool.read { db in
            try orders.toDeliver(on: day, statuses: statuses ?? [.paid, .shipped, .delivered, .completed], limit: limit, db)
        }
    }

    /// One's own orders, newest first.
    public func orders(for user: UserID, status: OrderStatus?, page: PageRequest) throws -> Page<Order> {
        try orders(for: user, statuses: status.map { [$0] } ?? [], page: page)
    }

    /// One's own orders in any of `statuses` (empty: every status), newest first: a storefront's
    /// tab may gather several (退款·售后 is `refunding` and `refunded`).
    public func orders(for user: UserID, statuses: [OrderStatus], page: PageRequest) throws -> Page<Order> {
        try pool.read { db in try orders.list(user: user, statuses: statuses, page: page, db) }
    }

    /// One's own order; anyone else's is `notFound`.
    public func order(_ id: OrderID, for user: UserID) throws -> Order {
        guard let order = try pool.read({ db in try orders.find(id, of: user, db) }) else { throw OrderError.notFound }
        return order
    }

    /// Cancels an order of one's own that has not shipped and returns its stock: an unpaid one is
    /// cancelled; a paid one goes to `refunding` with a refund of its payment opened, which
    /// `PaymentService.processRefunds` sends to the provider.
    public func cancel(_ id: OrderID, for user: UserID) throws -> Order {
        try change(id, for: user, action: .cancel) { db, now in
            if try lifecycle.cancel(id, reason: "cancelled_by_user", at: now, db) { return true }
            guard try lifecycle.startRefund(id, reason: "cancelled_by_user", at: now, db) else { return false }
            try refunds.openForPaidOrder(id, at: now, db)
            return true
        }
    }

    /// The buyer confirms a shipped order arrived.
    public func confirmReceipt(_ id: OrderID, for user: UserID) throws -> Order {
        try change(id, for: user, action: .confirmReceipt) { db, now in try lifecycle.complete(id, at: now, db) }
    }

    /// Operators: every order, newest first.
    public func allOrders(status: OrderStatus?, page: PageRequest) throws -> Page<Order> {
        try pool.read { db in try orders.list(user: nil, statuses: status.map { [$0] } ?? [], page: page, db) }
    }

    /// Operators and payments: an order by its number.
    public func order(number: String) throws -> Order {
        guard let order = try pool.read({ db in try orders.find(number: number, db) }) else { throw OrderError.notFound }
        return order
    }

    /// Cancels unpaid orders past their deadline (returning stock), but those `holding` (whose
    /// provider could not be asked yet whether they were paid), and completes orders shipped
    /// more than `orders.auto_complete_days` ago. Safe to run any number of times.
    public func sweep(batch: Int = 500, holding: Set<OrderID> = []) throws -> (cancelled: Int, completed: Int) {
        let now = clock.unixNow
        let completeBefore = now - Int64(settings.autoCompleteDays) * 86_400
        return try pool.write { db in
            var cancelled = 0, completed = 0
            for id in try orders.expired(at: now, limit: batch, db)
            where try !holding.contains(id) && lifecycle.cancel(id, reason: "payment_timeout", at: now, db) {
                cancelled += 1
            }
            for id in try orders.shippedBefore(completeBefore, limit: batch, db) where try lifecycle.complete(id, at: now, db) {
                completed += 1
            }
            return (cancelled, completed)
        }
    }

    private func change(_ id: OrderID, for user: UserID, action: OrderAction,
                        _ transition: (any SQLConnection, Int64) throws -> Bool) throws -> Order {
        let now = clock.unixNow
        return try pool.write { db in
            guard let status = try orders.status(id, of: user, db) else { throw OrderError.notFound }
            guard try transition(db, now) else { throw OrderError.stateConflict(current: status, action: action) }
            guard let changed = try orders.find(id, db) else { throw OrderError.notFound }
            return changed
        }
    }

    /// `yyyyMMdd` (China time) and 10 random digits: unique, and too sparse to enumerate.
    func uniqueNumber(at now: Int64, _ db: any SQLConnection) throws -> String {
        while true {
            let number = number(at: now)
            if try !orders.numberExists(number, db) { return number }
        }
    }

    /// An order number drawn at random: `yyyyMMdd` (China time) and 10 random digits.
    private func number(at now: Int64) -> String {
        ShopTime.day(Date(timeIntervalSince1970: TimeInterval(now))) + random.digits(10)
    }

    /// Inserts `order` and answers its row; a number already taken (one chance in 10^10 a day) is
    /// drawn again, so the number is unique without a separate check.
    private func insert(_ order: OrderStore.NewOrder, _ db: any SQLConnection) throws -> Row {
        var order = order
        while true {
            if let row = try orders.insertReturning(order, db) { return row }
            order.number = number(at: order.createdAt)
        }
    }
}
