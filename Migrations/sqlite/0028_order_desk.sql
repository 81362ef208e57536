-- The operators' desk on orders: the `delivered` status between shipped and completed (with its
-- time and the delivery photo), refunds of part of a payment (several per payment, each with the
-- operator's reason), and operators' notes on an order.
--
-- SQLite cannot change a CHECK constraint in place, so orders is rebuilt as in 0017: foreign keys
-- deferred to the commit, the rows of orders and of order_items (which DROP TABLE's implicit
-- delete cascades to) kept aside and put back, then every index of orders and the unpaid-count
-- triggers of 0019 made again. The triggers are made after the rows are back, so putting them
-- back counts nothing twice. refunds is rebuilt the same way to drop UNIQUE (payment_id).
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE orders_before_0028 AS SELECT * FROM orders;
CREATE TEMP TABLE order_items_before_0028 AS SELECT * FROM order_items;
CREATE TEMP TABLE refunds_before_0028 AS SELECT * FROM refunds;
DROP TABLE refunds;
DROP TABLE orders;
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    status TEXT NOT NULL CHECK (status IN ('pending_payment', 'paid', 'shipped', 'delivered', 'completed', 'cancelled',
                                           'refunding', 'refunded')),
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
    cancel_reason TEXT,
    delivery_date TEXT,
    delivery_slot TEXT CHECK (delivery_slot IN ('morning', 'afternoon', 'evening')),
    card_message TEXT,
    card_signature TEXT,
    discount_cents INTEGER NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
    coupon_code TEXT,
    coupon_description TEXT,
    delivered_at INTEGER,
    -- a shop /media URL of the flowers at the door
    delivery_photo_url TEXT
);
INSERT INTO orders (id, number, user_id, status, total_cents, note, ship_recipient, ship_phone, ship_province, ship_city,
                    ship_district, ship_detail, ship_postal_code, carrier, tracking_number, created_at, pay_deadline,
                    paid_at, shipped_at, completed_at, cancelled_at, cancel_reason, delivery_date, delivery_slot,
                    card_message, card_signature, discount_cents, coupon_code, coupon_description)
SELECT id, number, user_id, status, total_cents, note, ship_recipient, ship_phone, ship_province, ship_city,
       ship_district, ship_detail, ship_postal_code, carrier, tracking_number, created_at, pay_deadline,
       paid_at, shipped_at, completed_at, cancelled_at, cancel_reason, delivery_date, delivery_slot,
       card_message, card_signature, discount_cents, coupon_code, coupon_description
FROM temp.orders_before_0028;
INSERT INTO order_items SELECT * FROM temp.order_items_before_0028;
CREATE INDEX orders_by_user ON orders (user_id, created_at);
CREATE INDEX orders_by_status_deadline ON orders (status, pay_deadline);
CREATE INDEX orders_by_status_shipped ON orders (status, shipped_at);
CREATE INDEX orders_by_user_status ON orders (user_id, status);
CREATE INDEX orders_by_delivery_date ON orders (delivery_date, status);
-- the desk lists every order newest first
CREATE INDEX orders_by_created ON orders (created_at, id);

CREATE TRIGGER unpaid_orders_insert AFTER INSERT ON orders WHEN NEW.status = 'pending_payment' BEGIN
    INSERT INTO user_unpaid_orders (user_id, unpaid) VALUES (NEW.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET unpaid = unpaid + 1;
END;

CREATE TRIGGER unpaid_orders_leave AFTER UPDATE OF status ON orders
WHEN OLD.status = 'pending_payment' AND NEW.status <> 'pending_payment' BEGIN
    UPDATE user_unpaid_orders SET unpaid = unpaid - 1 WHERE user_id = OLD.user_id;
END;

CREATE TRIGGER unpaid_orders_enter AFTER UPDATE OF status ON orders
WHEN OLD.status <> 'pending_payment' AND NEW.status = 'pending_payment' BEGIN
    INSERT INTO user_unpaid_orders (user_id, unpaid) VALUES (NEW.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET unpaid = unpaid + 1;
END;

CREATE TRIGGER unpaid_orders_delete AFTER DELETE ON orders WHEN OLD.status = 'pending_payment' BEGIN
    UPDATE user_unpaid_orders SET unpaid = unpaid - 1 WHERE user_id = OLD.user_id;
END;

CREATE TABLE refunds (
    id INTEGER PRIMARY KEY,
    -- out_refund_no / out_request_no: the same number on every retry, so the provider refunds once
    number TEXT NOT NULL UNIQUE,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    -- a payment may go back in parts: their sum never exceeds it (checked by the desk's refund)
    payment_id INTEGER NOT NULL REFERENCES payments (id),
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
    refunded_at INTEGER,
    -- the operator's reason; NULL for a buyer's cancel
    reason TEXT
);
INSERT INTO refunds (id, number, order_id, payment_id, provider, amount_cents, status, attempts, last_error,
                     next_attempt_at, created_at, updated_at, refunded_at)
SELECT id, number, order_id, payment_id, provider, amount_cents, status, attempts, last_error,
       next_attempt_at, created_at, updated_at, refunded_at
FROM temp.refunds_before_0028;
CREATE INDEX refunds_by_status ON refunds (status, next_attempt_at);
CREATE INDEX refunds_by_order ON refunds (order_id);
CREATE INDEX refunds_by_payment ON refunds (payment_id);
DROP TABLE temp.orders_before_0028;
DROP TABLE temp.order_items_before_0028;
DROP TABLE temp.refunds_before_0028;

CREATE TABLE order_notes (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    staff_id INTEGER REFERENCES staff (id),
    -- the staff member's username, or cli:<user>
    author TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX order_notes_by_order ON order_notes (order_id, id);
