-- Payment attempts and every provider notification accepted (one row per provider event id).
CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    provider TEXT NOT NULL CHECK (provider IN ('mockpay', 'wechatpay', 'alipay')),
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    currency TEXT NOT NULL DEFAULT 'CNY',
    status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'needs_refund')),
    provider_trade_no TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX payments_by_order ON payments (order_id, created_at);

CREATE TABLE payment_events (
    id INTEGER PRIMARY KEY,
    provider TEXT NOT NULL,
    event_id TEXT NOT NULL,
    payment_id INTEGER REFERENCES payments (id),
    order_number TEXT NOT NULL,
    status TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    -- what the event did: paid, recorded, failed, needs_refund, amount_mismatch, unknown_order
    outcome TEXT NOT NULL,
    raw_body TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    UNIQUE (provider, event_id)
);
