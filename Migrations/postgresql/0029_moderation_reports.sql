-- The operators' desk, buyers and content: a buyer banned by staff (no sign-in; their tokens were
-- revoked when banned), an article hidden by moderation (kept, but no buyer sees it), and the
-- indexes the sales report reads by: orders by the moment they were paid, refunds by the moment
-- they were confirmed.
-- PostgreSQL translation of Migrations/sqlite/0029_moderation_reports.sql.
ALTER TABLE users ADD COLUMN banned_at BIGINT;
ALTER TABLE users ADD COLUMN ban_reason TEXT;
ALTER TABLE articles ADD COLUMN hidden_at BIGINT;
CREATE INDEX orders_by_paid_at ON orders (paid_at);
CREATE INDEX refunds_by_refunded_at ON refunds (refunded_at);
