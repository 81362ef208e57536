-- Refunds: a paid order cancelled before it ships goes refunding → refunded, and every payment
-- that must go back (such an order's, or one flagged needs_refund) gets one refund with its own
-- idempotent number, retried until the provider confirms it.
--
-- SQLite cannot change a CHECK constraint in place, so orders is rebuilt with the two new
-- statuses. Foreign keys stay on (the migration runs in a transaction, where they cannot be
-- switched off): they are deferred to the commit, the rows of orders and of order_items (which
-- DROP TABLE's implicit delete cascades to) are kept aside and put back, and the rows put back
-- satisfy every reference again before the commit checks them.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE orders_before_0017 AS SELECT * FROM orders;
CREATE TEMP TABLE order_items_before_0017 AS SELECT * FROM order_items;
DROP TABLE orders;
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    status TEXT NOT NULL CHECK (status IN ('pending_payment', 'paid', 'shipped', 'completed', 'cancelled', 'refunding', 'refunded')),
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    note TEXT NOT NULL DEFAULT '',
    -- the address as it was at checkout: editing or deleting the address never changes an order
    ship_recipient TEXT NOT NULL,
    ship_phone TEXT NOT NULL,
    ship_province TEXT NOT NULL,
    ship_city TEXT NOT NULL,
    ship_district TEXT NOT NULL,
    ship_detail TEXT NOT NULL,
    ship_postal_code TEXT,
    carrier TEXT,
    tracking_number TEXT,
    created_at INTEGER NOT NULL,
    pay_deadline INTEGER NOT NULL,
    paid_at INTEGER,
    shipped_at INTEGER,
    completed_at INTEGER,
    cancelled_at INTEGER,
    cancel_reason TEXT
);
INSERT INTO orders SELECT * FROM temp.orders_before_0017;
INSERT INTO order_items SELECT * FROM temp.order_items_before_0017;
DROP TABLE temp.orders_before_0017;
DROP TABLE temp.order_items_before_0017;
CREATE INDEX orders_by_user ON orders (user_id, created_at);
CREATE INDEX orders_by_status_deadline ON orders (status, pay_deadline);
CREATE INDEX orders_by_status_shipped ON orders (status, shipped_at);
CREATE INDEX orders_by_user_status ON orders (user_id, status);

CREATE TABLE refunds (
    id INTEGER PRIMARY KEY,
    -- out_refund_no / out_request_no: the same number on every retry, so the provider refunds once
    number TEXT NOT NULL UNIQUE,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    payment_id INTEGER NOT NULL UNIQUE REFERENCES payments (id),
    provider TEXT NOT NULL CHECK (provider IN ('mockpay', 'wechatpay', 'alipay')),
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    -- pending: to request (again); requested: the provider took it, confirmation awaited;
    -- refunded: confirmed; failed: the provider refused it for good, an operator must look
    status TEXT NOT NULL CHECK (status IN ('pending', 'requested', 'refunded', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    next_attempt_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    refunded_at INTEGER
);
CREATE INDEX refunds_by_status ON refunds (status, next_attempt_at);
CREATE INDEX refunds_by_order ON refunds (order_id);
