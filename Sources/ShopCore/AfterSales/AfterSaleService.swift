import Foundation
import SQL

/// After-sale (售后): a buyer asks for money back or for the flowers again about an order that
/// shipped, within `orders.after_sale_hours` of its delivery (or of its shipping when never marked
/// delivered), with up to six of their own uploaded pictures; the desk approves (a refund through
/// the desk's refund machinery, or a redelivery order at 0 cents linked to the original) or rejects
/// with a note. Each use case is one transaction; each decision is audited inside it.
public struct AfterSaleService: Sendable {
    let pool: any Database
    let orderService: OrderService
    let media: MediaLibrary
    /// `orders.after_sale_hours`.
    let windowHours: Int
    let clock: Clock
    private let store = AfterSaleStore()
    private let orders = OrderStore()
    private let refunds = RefundStore()
    private let stock = StockStore()

    public static let maxReasonLength = 200
    public static let maxPhotos = 6
    public static let maxNoteLength = 200

    public init(pool: any Database, orders: OrderService, media: MediaLibrary, windowHours: Int, clock: Clock) {
        self.pool = pool
        orderService = orders
        self.media = media
        self.windowHours = windowHours
        self.clock = clock
    }

    // MARK: buyers

    /// A buyer's request about their own order (another buyer's is `OrderError.notFound`): checked
    /// (reason, pictures the shop stored, a refund's amount), then, in one transaction, the order's
    /// window (`closed`), no other open request (`alreadyOpen`, exact under a race by the partial
    /// unique index) and, for a refund, no more than is left of the payment (`refundExceedsPaid`).
    /// A refund without an amount asks for all that is left.
    public func request(_ request: AfterSaleRequest, order id: OrderID, for user: UserID) throws -> AfterSale {
        // the limit holds before trimming too, as the OpenAPI document states it
        try Validate.length(request.reason, 0...Self.maxReasonLength, field: "reason")
        let reason = request.reason.trimmedInput
        try Validate.length(reason, 1...Self.maxReasonLength, field: "reason")
        try Validate.printable(reason, field: "reason", allowing: Validate.lineFeed)
        let photos = try checkedPhotos(request.photoURLs ?? [])
        if let amount = request.amountCents {
            guard request.kind == .refund else { throw ValidationError("amount_cents", .refundOnly) }
            guard (1...Int64(Int32.max)).contains(amount) else {
                throw ValidationError("amount_cents", .range, .range(1...Int(Int32.max)))
            }
        }
        let now = clock.unixNow
        return try pool.write { db in
            guard let order = try orders.find(id, of: user, db) else { throw OrderError.notFound }
            guard isWithinWindow(order, at: now) else { throw AfterSaleError.closed(hours: windowHours) }
            if try store.hasOpen(order: order.id, db) { throw AfterSaleError.alreadyOpen }
            var amount: Int64?
            if request.kind == .refund {
                let left = try refundable(order.id, db)
                amount = request.amountCents ?? left
                guard left > 0, let amount, amount <= left else { throw OrderError.refundExceedsPaid(availableCents: left) }
            }
            let checked = AfterSaleRequest(kind: request.kind, reason: reason, photoURLs: photos, amountCents: amount)
            let created: AfterSaleID
            do {
                created = try store.insert(order: order.id, user: user, checked, at: now, db)
            } catch let error as any SQLError where error.isUniqueViolation {
                throw AfterSaleError.alreadyOpen
            }
            guard let afterSale = try store.find(created, db) else { throw AfterSaleError.notFound }
            return afterSale
        }
    }

    /// The buyer's requests about their own order, newest first.
    public func afterSales(of id: OrderID, for user: UserID) throws -> [AfterSale] {
        try pool.read { db in
            guard try orders.find(id, of: user, db) != nil else { throw OrderError.notFound }
            return try store.all(of: id, db)
        }
    }

    // MARK: the desk

    /// The desk's queue: every buyer's requests, of one status or all, newest first.
    public func queue(status: AfterSaleStatus?, page: PageRequest) throws -> Page<AfterSale> {
        try pool.read { db in try store.page(status: status, page, db) }
    }

    /// Every request about the order numbered `number`, newest first (the desk's order detail).
    public func afterSales(ofOrderNumbered number: String) throws -> [AfterSale] {
        try pool.read { db in
            guard let order = try orders.find(number: number, db) else { throw OrderError.notFound }
            return try store.all(of: order.id, db)
        }
    }

    /// Approves a `requested` request. A refund opens a refund of `amountCents` (or of what the
    /// buyer asked for) of the order's payment, never more than is left of it, under its own
    /// idempotent number; `PaymentService.processRefunds` sends it, and the request is `refunded`
    /// once the provider confirms. A redelivery makes a new paid order for the same items at 0
    /// cents, stock taken, on the earliest delivery day, linked to the original: `redelivered`.
    public func approve(_ id: AfterSaleID, note: String?, amountCents: Int64?, by actor: StaffActor) throws -> AfterSale {
        let note = try Self.note(note, required: false)
        if let amountCents {
            guard (1...Int64(Int32.max)).contains(amountCents) else {
                throw ValidationError("amount_cents", .range, .range(1...Int(Int32.max)))
            }
        }
        let now = clock.unixNow
        return try pool.write { db in
            let before = try claim(id, as: .approved, db)
            guard let order = try orders.find(before.orderID, db) else { throw OrderError.notFound }
            switch before.kind {
            case .refund:
                // one writer of an order's refunds at a time: the sum checked is the sum written
                try db.serialize(on: RefundStore.lockKey(order.id))
                guard order.status.isPaidAndKept else { throw OrderError.stateConflict(current: order.status, action: .refund) }
                let left = try refundable(order.id, db)
                let amount = amountCents ?? before.amountCents ?? left
                guard let payment = try refunds.paidPayment(of: order.id, db), amount <= left else {
                    throw OrderError.refundExceedsPaid(availableCents: left)
                }
                let refund = try refunds.openPart(payment: payment.id, amountCents: amount,
                                                  reason: note.map { "售后 #\(id): \($0)" } ?? "售后 #\(id)", at: now, db)
                return try commit(before, .approved, note: note, amountCents: amount, refundNumber: refund, by: actor, at: now, db)
            case .redeliver:
                guard amountCents == nil else { throw ValidationError("amount_cents", .refundOnly) }
                let redelivery = try redeliver(order, at: now, db)
                return try commit(before, .redelivered, note: note, redeliveryOrder: redelivery, by: actor, at: now, db)
            }
        }
    }

    /// Rejects a `requested` request with the desk's note (1 to 200 characters), which the buyer sees.
    public func reject(_ id: AfterSaleID, note: String, by actor: StaffActor) throws -> AfterSale {
        let note = try Self.note(note, required: true)
        let now = clock.unixNow
        return try pool.write { db in
            let before = try claim(id, as: .rejected, db)
            return try commit(before, .rejected, note: note, by: actor, at: now, db)
        }
    }

    // MARK: helpers

    /// THE place a decision is committed, inside the decision's transaction: the request's status,
    /// note, author and what it made, and its audit row. (Work that must happen exactly once per
    /// decision, such as a notice to the buyer, belongs here.)
    private func commit(_ before: AfterSale, _ status: AfterSaleStatus, note: String?, amountCents: Int64? = nil,
                        refundNumber: String? = nil, redeliveryOrder: OrderID? = nil, by actor: StaffActor, at now: Int64,
                        _ db: any SQLConnection) throws -> AfterSale {
        try store.recordDecision(before.id, status: status, note: note, amountCents: amountCents, refundNumber: refundNumber,
                                 redeliveryOrder: redeliveryOrder, by: actor, at: now, db)
        guard let after = try store.find(before.id, db) else { throw AfterSaleError.notFound }
        let action = status == .rejected ? "after_sale.reject" : "after_sale.approve"
        try AuditTrail().record(actor, action, target: "after_sale:\(before.id)", before: AfterSaleAuditState(before),
                                after: AfterSaleAuditState(after), at: now, db)
        // the buyer hears of the decision once (an approved refund's money back is its own notice, `refunded`)
        try orderService.notices?.enqueue(event: .afterSaleDecided, order: before.orderID, subject: String(before.id.rawValue), in: db)
        return after
    }

    /// The request, taken for a decision (`status` until the decision is written); `notFound` or,
    /// when it is not `requested`, `alreadyDecided` naming where it is.
    private func claim(_ id: AfterSaleID, as status: AfterSaleStatus, _ db: any SQLConnection) throws -> AfterSale {
        guard let found = try store.find(id, db) else { throw AfterSaleError.notFound }
        guard try store.claim(id, as: status, db) else {
            throw AfterSaleError.alreadyDecided(current: try store.find(id, db)?.status ?? found.status)
        }
        return found
    }

    /// What is left of the payment that paid `order` after every refund of it (0 without one).
    private func refundable(_ order: OrderID, _ db: any SQLConnection) throws -> Int64 {
        guard let payment = try refunds.paidPayment(of: order, db) else { return 0 }
        return payment.amountCents - (try refunds.refundedOrOnTheirWay(payment: payment.id, db))
    }

    /// Shipped (or delivered, or completed) and within `orders.after_sale_hours` of its delivery, or
    /// of its shipping when never marked delivered.
    private func isWithinWindow(_ order: Order, at now: Int64) -> Bool {
        guard [.shipped, .delivered, .completed].contains(order.status), let since = order.deliveredAt ?? order.shippedAt else {
            return false
        }
        return Int64(since.timeIntervalSince1970) + Int64(windowHours) * 3_600 >= now
    }

    /// The redelivery of `original`: its items at 0 cents (stock taken, never below zero; the sale
    /// is not counted again), its address and card, paid at once, on the earliest delivery day.
    private func redeliver(_ original: Order, at now: Int64, _ db: any SQLConnection) throws -> OrderID {
        let lines = try orders.items(of: original.id, db)
        var nextDayOnly = false
        // in SKU id order, as checkout takes stock, so racing writers lock rows in one order
        for line in lines.sorted(by: { $0.skuID.rawValue < $1.skuID.rawValue }) {
            guard try stock.take(line.quantity, of: line.skuID, db) else {
                throw OrderError.outOfStock(line.skuID, sku: SKULabel(title: line.title, name: line.skuName),
                                            available: try stock.available(line.skuID, db))
            }
            if try stock.priced(line.skuID, db)?.delivery == .nextDay { nextDayOnly = true }
        }
        let day = try orderService.delivery.resolve(nil, slot: nil, at: Date(timeIntervalSince1970: TimeInterval(now)),
                                                    nextDayOnly: nextDayOnly)
        let free = lines.map { OrderStore.NewItem(skuID: $0.skuID, productID: $0.productID, title: $0.title, skuName: $0.skuName,
                                                  priceCents: 0, quantity: $0.quantity) }
        let id = try orders.insert(.init(number: try orderService.uniqueNumber(at: now, db), user: original.userID, totalCents: 0,
                                         note: "", address: original.address, createdAt: now, payDeadline: now,
                                         delivery: OrderDelivery(date: day, slot: nil, cardMessage: original.delivery.cardMessage,
                                                                 cardSignature: original.delivery.cardSignature),
                                         trackingToken: TrackingToken.make(orderService.random),
                                         anonymousSender: original.anonymousSender, notifyRecipient: original.notifyRecipient),
                                   items: free, db)
        // nothing to pay: paid at once, without counting the units sold a second time
        guard try orders.transition(id, from: [.pendingPayment], to: .paid, stamp: .paidAt, at: now, db) else {
            throw OrderError.notFound
        }
        return id
    }

    /// At most six pictures, each one this shop stored (`MediaLibrary.holds`); a repeat is kept once.
    private func checkedPhotos(_ urls: [String]) throws -> [String] {
        guard urls.count <= Self.maxPhotos else { throw ValidationError("photo_urls", .tooMany, ["max": .verbatim(String(Self.maxPhotos))]) }
        var photos: [String] = []
        for url in urls where !photos.contains(url) {
            guard media.holds(url) else { throw ValidationError("photo_urls", .uploadedPicture) }
            photos.append(url)
        }
        return photos
    }

    /// A decision's note: trimmed, 1 to 200 characters (line feeds allowed); empty is none unless required.
    private static func note(_ text: String?, required: Bool) throws -> String? {
        try Validate.length(text ?? "", 0...maxNoteLength, field: "note")
        let note = (text ?? "").trimmedInput
        if note.isEmpty {
            if required { throw ValidationError("note", .empty) }
            return nil
        }
        try Validate.length(note, 1...maxNoteLength, field: "note")
        try Validate.printable(note, field: "note", allowing: Validate.lineFeed)
        return note
    }
}

extension Shop {
    /// After-sale requests (buyers) and their decisions (the desk).
    public var afterSales: AfterSaleService {
        AfterSaleService(pool: pool, orders: orders, media: media, windowHours: config.orders.afterSaleHours, clock: clock)
    }
}
