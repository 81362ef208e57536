-- After-sale (售后): a buyer's request about an order that shipped, within orders.after_sale_hours
-- of its delivery (or of its shipping when never marked delivered), and the desk's decision on it.
-- A refund request is decided by opening a refund of the order's payment through the same
-- machinery as the desk's refunds (refund_number: its idempotent number); a redelivery by a new
-- order for the same items at 0 cents (redelivery_order_id: the link, seen from both orders).
--
-- One open request per order (requested, or approved and its refund not yet confirmed): the
-- partial unique index keeps it exact when two requests race.
CREATE TABLE after_sales (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    user_id INTEGER NOT NULL REFERENCES users (id),
    kind TEXT NOT NULL CHECK (kind IN ('refund', 'redeliver')),
    status TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'rejected', 'refunded', 'redelivered')),
    reason TEXT NOT NULL,
    -- a JSON array of the shop's own /media URLs (at most 6)
    photo_urls TEXT NOT NULL DEFAULT '[]',
    -- refunds only: what the buyer asked for, then what the desk approved
    amount_cents INTEGER CHECK (amount_cents >= 1),
    created_at INTEGER NOT NULL,
    decided_at INTEGER,
    decision_note TEXT,
    -- the staff member who decided (NULL for the command line), and their name as the audit log keeps it
    decided_by INTEGER REFERENCES staff (id),
    decided_by_name TEXT,
    refund_number TEXT REFERENCES refunds (number),
    redelivery_order_id INTEGER UNIQUE REFERENCES orders (id),
    CHECK ((kind = 'refund') = (amount_cents IS NOT NULL))
);
CREATE UNIQUE INDEX after_sales_one_open ON after_sales (order_id) WHERE status IN ('requested', 'approved');
CREATE INDEX after_sales_by_order ON after_sales (order_id, id);
-- the desk's queue: by status, newest first
CREATE INDEX after_sales_by_status ON after_sales (status, created_at, id);
CREATE INDEX after_sales_by_created ON after_sales (created_at, id);
CREATE INDEX after_sales_by_refund ON after_sales (refund_number);
