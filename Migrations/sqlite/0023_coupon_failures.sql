-- Refused coupon codes, counted per buyer and per client address like failed logins: past
-- coupons.max_failures_per_buyer or coupons.max_failures_per_ip in coupons.failure_window_seconds,
-- previews and checkouts with a code answer 429 too_many_attempts, so codes cannot be guessed.
CREATE TABLE coupon_failures (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client_ip TEXT NOT NULL,
    failed_at INTEGER NOT NULL
);
CREATE INDEX coupon_failures_by_user ON coupon_failures (user_id, failed_at);
CREATE INDEX coupon_failures_by_ip ON coupon_failures (client_ip, failed_at);
