-- PostgreSQL translation of Migrations/sqlite/0019_unpaid_counts.sql: each buyer's number of
-- unpaid orders, kept by a trigger on orders, so checkout reads one row for the unpaid cap.
CREATE TABLE user_unpaid_orders (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    unpaid BIGINT NOT NULL CHECK (unpaid >= 0)
);
INSERT INTO user_unpaid_orders (user_id, unpaid)
    SELECT user_id, COUNT(*) FROM orders WHERE status = 'pending_payment' GROUP BY user_id;

CREATE FUNCTION unpaid_orders_track() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'pending_payment'
       AND (TG_OP = 'DELETE' OR NEW.status <> 'pending_payment') THEN
        UPDATE user_unpaid_orders SET unpaid = unpaid - 1 WHERE user_id = OLD.user_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'pending_payment'
       AND (TG_OP = 'INSERT' OR OLD.status <> 'pending_payment') THEN
        INSERT INTO user_unpaid_orders (user_id, unpaid) VALUES (NEW.user_id, 1)
            ON CONFLICT (user_id) DO UPDATE SET unpaid = user_unpaid_orders.unpaid + 1;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER unpaid_orders_track AFTER INSERT OR UPDATE OF status OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION unpaid_orders_track();
