-- Carts (one per user, a line per SKU) and address books.
CREATE TABLE cart_items (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sku_id INTEGER NOT NULL REFERENCES skus (id),
    quantity INTEGER NOT NULL CHECK (quantity >= 1),
    selected INTEGER NOT NULL DEFAULT 1 CHECK (selected IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (user_id, sku_id)
);

CREATE TABLE addresses (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    recipient TEXT NOT NULL,
    phone TEXT NOT NULL,
    province TEXT NOT NULL,
    city TEXT NOT NULL,
    district TEXT NOT NULL,
    detail TEXT NOT NULL,
    postal_code TEXT,
    is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX addresses_by_user ON addresses (user_id, updated_at);
-- at most one default per user; the service keeps it exactly one while any address exists
CREATE UNIQUE INDEX addresses_one_default ON addresses (user_id) WHERE is_default = 1;
