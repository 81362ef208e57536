-- Coupons: operators create them from the command line; a buyer applies one code at checkout.
-- `uses` counts the orders holding a use; a conditional UPDATE (uses < max_uses) in the checkout's
-- transaction takes one, so racing checkouts never pass max_uses, and the CHECK is the last line
-- of defence. A use is given back (released_at set, uses - 1) when its order is cancelled before
-- it ships.
CREATE TABLE coupons (
    id INTEGER PRIMARY KEY,
    -- upper case: codes are matched case-insensitively
    code TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('percent_off', 'amount_off')),
    -- percent_off: 1..99 (% off); amount_off: cents off
    amount INTEGER NOT NULL CHECK (amount > 0),
    min_spend_cents INTEGER NOT NULL DEFAULT 0 CHECK (min_spend_cents >= 0),
    starts_at INTEGER,
    ends_at INTEGER,
    max_uses INTEGER CHECK (max_uses > 0),
    per_user_limit INTEGER CHECK (per_user_limit > 0),
    -- only lines of this category (and the categories under it) count
    category_id INTEGER REFERENCES categories (id),
    uses INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND (max_uses IS NULL OR uses <= max_uses)),
    disabled_at INTEGER,
    created_at INTEGER NOT NULL,
    CHECK (kind <> 'percent_off' OR amount <= 99),
    CHECK (starts_at IS NULL OR ends_at IS NULL OR starts_at < ends_at)
);

CREATE TABLE coupon_uses (
    order_id INTEGER PRIMARY KEY REFERENCES orders (id),
    coupon_id INTEGER NOT NULL REFERENCES coupons (id),
    user_id INTEGER NOT NULL REFERENCES users (id),
    discount_cents INTEGER NOT NULL CHECK (discount_cents >= 0),
    created_at INTEGER NOT NULL,
    -- set when the order was cancelled before shipping: the use no longer counts
    released_at INTEGER
);
CREATE INDEX coupon_uses_by_coupon_user ON coupon_uses (coupon_id, user_id);

-- The order keeps what it was given: total_cents is the sum of its lines less discount_cents.
ALTER TABLE orders ADD COLUMN discount_cents INTEGER NOT NULL DEFAULT 0 CHECK (discount_cents >= 0);
ALTER TABLE orders ADD COLUMN coupon_code TEXT;
ALTER TABLE orders ADD COLUMN coupon_description TEXT;
