-- A cart add as one statement on PostgreSQL (CartService.add, CartStore.addInOneStatement). It was
-- five statements in two round trips: the buyer's advisory lock and the read of what the add needs
-- (the SKU's sale status, stock and label, the buyer's line of it and the cart's total) in one
-- pipeline, then the write and the cart read carrying the COMMIT in another; the buyer's lock was
-- held across the round trip between them. Here the lock, the read, the checks, the write and the
-- cart read after it run in one call, and the lock is held only while it runs and commits.
--
-- The rules are the service's, in the same order, with the same answers: a SKU that does not
-- exist or is off sale (itself or its product) is 'sku_not_found'; then the cap (the cart's items
-- in all plus the quantity added, at most p_max) is 'limit_exceeded'; then the stock (the line's
-- quantity after the add, at most the SKU's stock) is 'out_of_stock', with the stock, the
-- product's title and the SKU's name the error names. A refused add writes nothing and answers
-- that one row. An add that passes merges into the buyer's line of the SKU or inserts one, and
-- answers every line of the cart, newest first, as CartStore.lines reads them, outcome 'added'.
--
-- p_lock_key is the service's key for the buyer (CartService.lockKey), taken as the connection's
-- serialize(onKeys:) takes it, so an add still queues behind the buyer's checkout and other cart
-- changes. PL/pgSQL runs each query below with a snapshot taken when that query starts (READ
-- COMMITTED), so the read after the lock sees every change committed before the lock was granted,
-- as the second statement of the old pipeline did.
-- SQLite's file of this number changes nothing: its add runs in process.
CREATE FUNCTION cart_add(p_lock_key TEXT, p_user BIGINT, p_sku BIGINT, p_quantity BIGINT, p_max BIGINT, p_now BIGINT)
RETURNS TABLE (outcome TEXT, id BIGINT, sku_id BIGINT, product_id BIGINT, title TEXT, sku_name TEXT, cover_url TEXT,
               price_cents BIGINT, quantity BIGINT, selected SMALLINT, status TEXT, stock BIGINT)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_found BIGINT;
    v_status TEXT;
    v_stock BIGINT;
    v_title TEXT;
    v_name TEXT;
    v_line BIGINT;
    v_line_quantity BIGINT;
    v_total BIGINT;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_lock_key, 0));
    SELECT s.id, CASE WHEN p.status = 'on_sale' AND s.status = 'on_sale' THEN 'on_sale' ELSE 'off_sale' END,
           s.stock, p.title, s.name, c.id, c.quantity,
           (SELECT COALESCE(SUM(t.quantity), 0) FROM cart_items t WHERE t.user_id = p_user)
      INTO v_found, v_status, v_stock, v_title, v_name, v_line, v_line_quantity, v_total
      FROM (SELECT 1 AS one) AS start
      LEFT JOIN (skus s JOIN products p ON p.id = s.product_id) ON s.id = p_sku
      LEFT JOIN cart_items c ON c.user_id = p_user AND c.sku_id = p_sku;
    IF v_found IS NULL OR v_status <> 'on_sale' THEN
        RETURN QUERY SELECT 'sku_not_found', NULL::BIGINT, p_sku, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT,
                            NULL::BIGINT, NULL::BIGINT, NULL::SMALLINT, NULL::TEXT, NULL::BIGINT;
        RETURN;
    END IF;
    IF v_total + p_quantity > p_max THEN
        RETURN QUERY SELECT 'limit_exceeded', NULL::BIGINT, p_sku, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT,
                            NULL::BIGINT, NULL::BIGINT, NULL::SMALLINT, NULL::TEXT, NULL::BIGINT;
        RETURN;
    END IF;
    IF COALESCE(v_line_quantity, 0) + p_quantity > v_stock THEN
        RETURN QUERY SELECT 'out_of_stock', NULL::BIGINT, p_sku, NULL::BIGINT, v_title, v_name, NULL::TEXT,
                            NULL::BIGINT, NULL::BIGINT, NULL::SMALLINT, v_status, v_stock;
        RETURN;
    END IF;
    IF v_line IS NULL THEN
        INSERT INTO cart_items (user_id, sku_id, quantity, selected, created_at, updated_at)
        VALUES (p_user, p_sku, p_quantity, 1, p_now, p_now);
    ELSE
        UPDATE cart_items SET quantity = v_line_quantity + p_quantity, updated_at = p_now
        WHERE id = v_line AND user_id = p_user;
    END IF;
    RETURN QUERY
        SELECT 'added', c.id, c.sku_id, s.product_id, p.title, s.name, p.cover_url, s.price_cents, c.quantity,
               c.selected, CASE WHEN p.status = 'on_sale' AND s.status = 'on_sale' THEN 'on_sale' ELSE 'off_sale' END,
               s.stock
        FROM cart_items c JOIN skus s ON s.id = c.sku_id JOIN products p ON p.id = s.product_id
        WHERE c.user_id = p_user ORDER BY c.created_at DESC, c.id DESC;
END
$$;
