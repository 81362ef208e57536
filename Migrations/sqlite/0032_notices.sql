-- The recipient's tracking page and the notices outbox.
--
-- orders.tracking_token: an unguessable token (128 random bits from the shop's CSPRNG, 32 hex
-- digits) naming the order's /track page; kept as it is (the buyer's order shows its link, and
-- every notice carries it), looked up by its unique index in one read. NULL for orders placed
-- before this migration: they have no tracking page. anonymous_sender hides the buyer's name and
-- phone from that page; notify_recipient = 0 keeps the recipient's notices from being written.
ALTER TABLE orders ADD COLUMN tracking_token TEXT;
ALTER TABLE orders ADD COLUMN anonymous_sender INTEGER NOT NULL DEFAULT 0 CHECK (anonymous_sender IN (0, 1));
ALTER TABLE orders ADD COLUMN notify_recipient INTEGER NOT NULL DEFAULT 1 CHECK (notify_recipient IN (0, 1));
CREATE UNIQUE INDEX orders_by_tracking_token ON orders (tracking_token);

-- The outbox: one row per message, written in the transaction of the event it tells of, so an
-- event committed is a message owed and an event rolled back is none. (order, event, subject,
-- audience) is unique: an event enqueued twice is one notice. subject tells apart events that
-- may happen more than once to one order (a refund's number, an after-sale's id); '' otherwise.
-- pending: due at next_attempt_at; sending: claimed by claimed_by until claim_expires_at (a claim
-- left by a dead node is taken again once it expires); sent; failed: gave up after the retries,
-- an operator may retry it (shop notifications retry ID).
CREATE TABLE notifications (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    event TEXT NOT NULL CHECK (event IN ('paid', 'shipped', 'delivered', 'refunded', 'after_sale_decided')),
    subject TEXT NOT NULL DEFAULT '',
    audience TEXT NOT NULL CHECK (audience IN ('buyer', 'recipient')),
    recipient TEXT NOT NULL,
    text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at INTEGER NOT NULL,
    claimed_by TEXT,
    claim_expires_at INTEGER,
    created_at INTEGER NOT NULL,
    sent_at INTEGER,
    last_error TEXT,
    UNIQUE (order_id, event, subject, audience)
);
CREATE INDEX notifications_due ON notifications (status, next_attempt_at);
CREATE INDEX notifications_claims ON notifications (status, claim_expires_at);
