-- Each buyer's number of unpaid orders, kept by triggers on orders, so checkout reads one row to
-- enforce orders.max_unpaid_per_user instead of counting the buyer's pending orders (a count up
-- to the cap walks every one of them when the cap is large).
CREATE TABLE user_unpaid_orders (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    unpaid INTEGER NOT NULL CHECK (unpaid >= 0)
);
INSERT INTO user_unpaid_orders (user_id, unpaid)
    SELECT user_id, COUNT(*) FROM orders WHERE status = 'pending_payment' GROUP BY user_id;

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
