import SQL

/// SQL of `delivery_slot_load`: the places taken in each day's slots, under `orders.slot_capacity`.
/// A place is taken by one guarded upsert, the technique that keeps coupon uses exact: the count
/// moves only while it is below the capacity, and the row is the lock, so of racing checkouts
/// into the last place exactly one gets it, on either engine.
struct SlotLoadStore {
    /// The slots of the days in `window` whose places are all taken.
    func full(capacity: Int, in window: ClosedRange<CalendarDay>, _ db: any SQLConnection) throws -> Set<DaySlot> {
        var full: Set<DaySlot> = []
        for row in try db.query("""
            SELECT delivery_date, delivery_slot FROM delivery_slot_load
            WHERE delivery_date >= \(window.lowerBound) AND delivery_date <= \(window.upperBound) AND taken >= \(capacity)
            """) {
            full.insert(DaySlot(date: try row.decode("delivery_date"), slot: try row.decode("delivery_slot")))
        }
        return full
    }

    /// Takes one place in `slot` if fewer than `capacity` are taken; whether it did.
    func take(_ slot: DaySlot, capacity: Int, _ db: any SQLConnection) throws -> Bool {
        try db.run("""
            INSERT INTO delivery_slot_load (delivery_date, delivery_slot, taken) VALUES (\(slot.date), \(slot.slot), 1)
            ON CONFLICT (delivery_date, delivery_slot) DO UPDATE SET taken = delivery_slot_load.taken + 1
            WHERE delivery_slot_load.taken < \(capacity)
            """) == 1
    }

    /// Gives back the place the order holds, once: the order's flag is cleared in the same statement
    /// that finds it, so a second call (or an order that held none) changes nothing.
    func release(order: OrderID, _ db: any SQLConnection) throws {
        guard let held = try db.queryOne("""
            UPDATE orders SET holds_slot = 0 WHERE id = \(order) AND holds_slot = 1 RETURNING delivery_date, delivery_slot
            """) else { return }
        guard let date: CalendarDay = try held.decode("delivery_date"), let slot: DeliverySlot = try held.decode("delivery_slot") else { return }
        try db.runLater("""
            UPDATE delivery_slot_load SET taken = taken - 1
            WHERE delivery_date = \(date) AND delivery_slot = \(slot) AND taken > 0
            """)
    }

    /// Places taken per slot of `date` (the florist's view).
    func taken(on date: CalendarDay, _ db: any SQLConnection) throws -> [DeliverySlot: Int] {
        var taken: [DeliverySlot: Int] = [:]
        for row in try db.query("SELECT delivery_slot, taken FROM delivery_slot_load WHERE delivery_date = \(date)") {
            taken[try row.decode("delivery_slot")] = try row.decode("taken")
        }
        return taken
    }
}
