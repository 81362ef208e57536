import Foundation
import SQL

/// The operators' desk on orders (`/admin/orders…` and `shop orders …`): search, detail, and the
/// shop's writes — ship, deliver, cancel, refund, note. Each write is one transaction through the
/// same life cycle buyers' requests use, and records itself in the audit log inside it.
extension OrderService {
    public static let maxCarrierLength = 40
    public static let maxTrackingLength = 64
    public static let maxReasonLength = 200
    public static let maxDeskNoteLength = 500

    /// A page of every buyer's orders matching `filter`, newest first (`to` before `from`: none).
    public func search(_ filter: OrderFilter, page: PageRequest) throws -> Page<Order> {
        var filter = filter
        if let query = filter.query?.trimmingCharacters(in: .whitespaces) {
            try Validate.length(query, 0...OrderFilter.maxQueryLength, field: "q")
            try Validate.printable(query, field: "q")
            filter.query = query.isEmpty ? nil : query
        }
        let start = filter.from.map { startOfDay($0) }
        let end = filter.to.map { startOfDay($0.adding(days: 1)) }
        return try pool.read { db in try orders.search(filter, createdFrom: start, createdBefore: end, page: page, db) }
    }

    /// The order numbered `number` with its payments, refunds and notes, and the buyer's phone whole.
    public func detail(number: String) throws -> OrderDetail {
        try pool.read { db in try detail(number: number, db) }
    }

    /// Ships a paid order with its carrier and tracking number, or neither (the shop's own courier).
    public func ship(number: String, carrier: String?, trackingNumber: String?, by actor: StaffActor) throws -> Order {
        let carrier = carrier?.trimmingCharacters(in: .whitespaces).nilWhenEmpty
        let tracking = trackingNumber?.trimmingCharacters(in: .whitespaces).nilWhenEmpty
        if let carrier {
            try Validate.length(carrier, 1...Self.maxCarrierLength, field: "carrier")
            try Validate.printable(carrier, field: "carrier")
        }
        if let tracking {
            try Validate.length(tracking, 1...Self.maxTrackingLength, field: "tracking_number")
            try Validate.printable(tracking, field: "tracking_number")
        }
        // a tracking number means nothing without its carrier, and a carrier without one cannot be followed
        if carrier != nil, tracking == nil { throw ValidationError("tracking_number", .empty) }
        if tracking != nil, carrier == nil { throw ValidationError("carrier", .empty) }
        return try deskWrite(number, action: .ship, audit: "order.ship", by: actor) { order, db, now in
            guard try lifecycle.ship(order.id, carrier: carrier, trackingNumber: tracking, at: now, db) else { return false }
            try notices?.enqueue(event: .shipped, order: order.id, in: db)
            return true
        }
    }

    /// Records a shipped order delivered, with the photo taken at the door (a shop `/media` path) if any.
    public func deliver(number: String, photoURL: String?, by actor: StaffActor) throws -> Order {
        let photo = photoURL?.trimmingCharacters(in: .whitespaces).nilWhenEmpty
        if let photo {
            try Validate.length(photo, 1...512, field: "photo_url")
            guard MediaPath.segments(of: photo) != nil else { throw ValidationError("photo_url", .url) }
        }
        return try deskWrite(number, action: .deliver, audit: "order.deliver", by: actor) { order, db, now in
            guard try lifecycle.deliver(order.id, photoURL: photo, at: now, db) else { return false }
            try notices?.enqueue(event: .delivered, order: order.id, in: db)
            return true
        }
    }

    /// The shop cancels an order that has not shipped, exactly as its buyer could: an unpaid one is
    /// cancelled, a paid one goes to `refunding` with the refund of what is left of its payment
    /// opened (`PaymentService.processRefunds` sends it). The stock and the coupon's use come back.
    public func cancel(number: String, reason: String, by actor: StaffActor) throws -> Order {
        let reason = try Self.reason(reason)
        return try deskWrite(number, action: .cancel, audit: "order.cancel", by: actor, cancelReason: reason) { order, db, now in
            if try lifecycle.cancel(order.id, reason: reason, at: now, db) { return true }
            guard try lifecycle.startRefund(order.id, reason: reason, at: now, db) else { return false }
            try refunds.openForPaidOrder(order.id, at: now, db)
            // everything was already refunded in parts and confirmed: nothing more to wait for
            if try refunds.orderRefundConfirmed(order.id, db) { _ = try lifecycle.finishRefund(order.id, at: now, db) }
            return true
        }
    }

    /// Gives back `amountCents` of a paid order (paid, shipped, delivered or completed; its status
    /// stays): a refund of the payment under its own number, which `PaymentService.processRefunds`
    /// sends to the provider. The refunds of a payment never add up to more than it:
    /// `refundExceedsPaid` names what is left.
    public func refund(number: String, amountCents: Int64, reason: String, by actor: StaffActor) throws -> Refund {
        guard amountCents >= 1 else { throw ValidationError("amount_cents", .range, .range(1...Int(Int32.max))) }
        let reason = try Self.reason(reason)
        let now = clock.unixNow
        return try pool.write { db in
            guard let found = try orders.find(number: number, db) else { throw OrderError.notFound }
            // one writer of an order's refunds at a time (a cancel's too): the sum checked is the sum
            // written, and the status is read again once the lock is held
            try db.serialize(on: RefundStore.lockKey(found.id))
            guard let order = try orders.find(found.id, db) else { throw OrderError.notFound }
            guard order.status.isPaidAndKept else { throw OrderError.stateConflict(current: order.status, action: .refund) }
            guard let payment = try refunds.paidPayment(of: order.id, db) else { throw OrderError.refundExceedsPaid(availableCents: 0) }
            let before = try refunds.refundedOrOnTheirWay(payment: payment.id, db)
            guard before + amountCents <= payment.amountCents else {
                throw OrderError.refundExceedsPaid(availableCents: payment.amountCents - before)
            }
            let refundNumber = try refunds.openPart(payment: payment.id, amountCents: amountCents, reason: reason, at: now, db)
            guard let refund = try refunds.find(refundNumber, db) else { throw OrderError.notFound }
            try AuditTrail().record(actor, "order.refund", target: "order:\(number)",
                                    before: OrderAuditState(order, refundedCents: before),
                                    after: RefundAudit(refund: refund.number, amountCents: amountCents, reason: reason,
                                                       refundedCents: before + amountCents), at: now, db)
            return refund
        }
    }

    /// Adds an operator's note to an order: 1 to 500 characters, line feeds allowed.
    public func addNote(number: String, text: String, by actor: StaffActor) throws -> OrderNote {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        try Validate.length(text, 1...Self.maxDeskNoteLength, field: "text")
        try Validate.printable(text, field: "text", allowing: Validate.lineFeed)
        let now = clock.unixNow
        return try pool.write { db in
            guard let order = try orders.find(number: number, db) else { throw OrderError.notFound }
            let note = try OrderDeskStore().addNote(to: order.id, by: actor, text: text, at: now, db)
            try AuditTrail().record(actor, "order.note", target: "order:\(number)", after: ["text": text], at: now, db)
            return note
        }
    }

    // MARK: helpers

    private struct RefundAudit: Encodable {
        let refund: String
        let amountCents: Int64
        let reason: String
        let refundedCents: Int64
    }

    /// One desk transition in one transaction: the order found, moved (or 409 naming its status,
    /// nothing written), the move audited with the order before and after.
    private func deskWrite(_ number: String, action: OrderAction, audit: String, by actor: StaffActor, cancelReason: String? = nil,
                           _ transition: (Order, any SQLConnection, Int64) throws -> Bool) throws -> Order {
        let now = clock.unixNow
        return try pool.write { db in
            guard let order = try orders.find(number: number, db) else { throw OrderError.notFound }
            guard try transition(order, db, now) else { throw OrderError.stateConflict(current: order.status, action: action) }
            guard let changed = try orders.find(order.id, db) else { throw OrderError.notFound }
            var after = OrderAuditState(changed)
            after.cancelReason = cancelReason
            try AuditTrail().record(actor, audit, target: "order:\(number)", before: OrderAuditState(order), after: after, at: now, db)
            return changed
        }
    }

    private func detail(number: String, _ db: any SQLConnection) throws -> OrderDetail {
        guard let order = try orders.find(number: number, db) else { throw OrderError.notFound }
        let desk = OrderDeskStore()
        return OrderDetail(order: order, buyerPhone: try desk.buyerPhone(of: order.userID, db), payments: try desk.payments(of: order.id, db),
                           refunds: try refunds.all(of: order.id, db), notes: try desk.notes(of: order.id, db),
                           afterSales: try AfterSaleStore().all(of: order.id, db))
    }

    /// A cancel's or a refund's reason: 1 to 200 characters on one line.
    private static func reason(_ text: String) throws -> String {
        let reason = text.trimmingCharacters(in: .whitespacesAndNewlines)
        try Validate.length(reason, 1...maxReasonLength, field: "reason")
        try Validate.printable(reason, field: "reason")
        return reason
    }

    /// The first second of `day` in the shop's time zone (`app.timezone`).
    private func startOfDay(_ day: CalendarDay) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = delivery.timeZone
        let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) ?? Date(timeIntervalSince1970: 0)
        return Int64(date.timeIntervalSince1970)
    }
}

private extension String {
    var nilWhenEmpty: String? { isEmpty ? nil : self }
}
