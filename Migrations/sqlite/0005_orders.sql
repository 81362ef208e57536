-- Orders with an address snapshot, their lines, and the idempotency keys of checkout.
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    status TEXT NOT NULL CHECK (status IN ('pending_payment', 'paid', 'shipped', 'completed', 'cancelled')),
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
CREATE INDEX orders_by_user ON orders (user_id, created_at);
CREATE INDEX orders_by_status_deadline ON orders (status, pay_deadline);
CREATE INDEX orders_by_status_shipped ON orders (status, shipped_at);

CREATE TABLE order_items (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    sku_id INTEGER NOT NULL REFERENCES skus (id),
    product_id INTEGER NOT NULL REFERENCES products (id),
    title TEXT NOT NULL,
    sku_name TEXT NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    quantity INTEGER NOT NULL CHECK (quantity >= 1)
);
CREATE INDEX order_items_by_order ON order_items (order_id);

CREATE TABLE idempotency_keys (
    user_id INTEGER NOT NULL REFERENCES users (id),
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, key)
);
