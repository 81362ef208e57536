-- Delivery slots have a capacity (orders.slot_capacity): delivery_slot_load counts the places
-- taken per day and slot. A checkout takes a place with one guarded upsert (the row's count moves
-- only while below the capacity, so racing checkouts cannot pass it, as with coupon uses); an
-- order that took one says so (holds_slot) and gives it back once, when it is cancelled or its
-- refund starts. Orders placed before, or while the capacity was 0, hold none.
CREATE TABLE delivery_slot_load (
    delivery_date TEXT NOT NULL,
    delivery_slot TEXT NOT NULL,
    taken INTEGER NOT NULL CHECK (taken >= 0),
    PRIMARY KEY (delivery_date, delivery_slot)
);
ALTER TABLE orders ADD COLUMN holds_slot INTEGER NOT NULL DEFAULT 0 CHECK (holds_slot IN (0, 1));
-- The delivery fee (peak days' fee; delivery zones add theirs): in total_cents, never discounted.
ALTER TABLE orders ADD COLUMN delivery_fee_cents BIGINT NOT NULL DEFAULT 0 CHECK (delivery_fee_cents >= 0);
