-- Every cart change as one statement on PostgreSQL, its durability included (CartService.add,
-- update, remove, clear; CartStore.addInOneStatement and its siblings). After 0046 an add was two
-- statements on the server (the transaction's `set_config('synchronous_commit', 'off', true)`,
-- which Durability.processCrash holds, then cart_add), a clear two (set_config, its DELETE), a
-- raised quantity eight in four round trips (BEGIN and SET LOCAL with the lock and the line; the
-- total; the SKU; the write and the cart read with COMMIT), a removal five in two. Here each is
-- one call, sent alone as its pipeline's implicit transaction (no BEGIN, no COMMIT).
--
-- Durability: each function runs `set_config('synchronous_commit', 'off', true)` first, which
-- lasts to the end of the transaction it runs in (implicit or not; a function declared with
-- `SET synchronous_commit` would restore it on return, before the commit), so the commit does
-- not wait for the disk: exactly Durability.processCrash, the cart's durability, as before. The
-- service therefore asks for no durability of its own around these calls on PostgreSQL.
--
-- The rules are the service's, in the same order, with the same answers (see 0046 for the add):
--   cart_update: the buyer's lock (p_lock_key, as serialize(onKeys:) takes it); a line that is
--     not the buyer's is 'line_not_found' (another buyer's line is not found); a quantity above
--     the line's checks the cap (the cart's items in all plus the rise, at most p_max:
--     'limit_exceeded'), then the SKU's sale status (itself and its product: 'sku_not_found'),
--     then its stock (the new quantity at most the stock: 'out_of_stock', with the stock, the
--     product's title and the SKU's name); a lower quantity is always allowed. A changed quantity
--     and a given p_selected are written with p_now as updated_at. Answers 'updated' and the lines.
--   cart_remove: the buyer's line deleted, else 'line_not_found'; answers 'removed' and the lines
--     left (none for an emptied cart). No lock, as the service's: a removal only lowers the cart.
--   cart_clear: every line of the buyer deleted; answers nothing. No lock, as the service's.
-- A refused change writes nothing and answers that one row. The lines are CartStore.lines's,
-- newest first, in cart_add's columns.
--
-- cart_add is the same as 0046's with the durability setting added and its answer read by
-- cart_lines_after, as its siblings read theirs.
-- SQLite's file of this number changes nothing: its cart changes run in process.
-- The cart's lines after a change, newest first, each row labelled with the change's outcome:
-- what cart_add, cart_update and cart_remove answer (CartStore.lines's columns). Called as their
-- last statement, it sees the write they made before it. STABLE, not STRICT and one SELECT, so the
-- planner inlines it into the caller's query (EXPLAIN shows its joins, no Function Scan) and the
-- callers' cached plans hold it.
CREATE FUNCTION cart_lines_after(p_outcome TEXT, p_user BIGINT)
RETURNS TABLE (outcome TEXT, id BIGINT, sku_id BIGINT, product_id BIGINT, title TEXT, sku_name TEXT, cover_url TEXT,
               price_cents BIGINT, quantity BIGINT, selected SMALLINT, status TEXT, stock BIGINT)
LANGUAGE sql STABLE AS $$
    SELECT p_outcome, c.id, c.sku_id, s.product_id, p.title, s.name, p.cover_url, s.price_cents, c.quantity,
           c.selected, CASE WHEN p.status = 'on_sale' AND s.status = 'on_sale' THEN 'on_sale' ELSE 'off_sale' END,
           s.stock
    FROM cart_items c JOIN skus s ON s.id = c.sku_id JOIN products p ON p.id = s.product_id
    WHERE c.user_id = p_user ORDER BY c.created_at DESC, c.id DESC
$$;

CREATE OR REPLACE FUNCTION cart_add(p_lock_key TEXT, p_user BIGINT, p_sku BIGINT, p_quantity BIGINT, p_max BIGINT, p_now BIGINT)
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
    PERFORM set_config('synchronous_commit', 'off', true);
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
    RETURN QUERY SELECT * FROM cart_lines_after('added', p_user);
END
$$;

-- p_quantity, p_selected: NULL when the request leaves them as they are; p_selected 0 or 1.
CREATE FUNCTION cart_update(p_lock_key TEXT, p_user BIGINT, p_line BIGINT, p_quantity BIGINT, p_selected SMALLINT,
                            p_max BIGINT, p_now BIGINT)
RETURNS TABLE (outcome TEXT, id BIGINT, sku_id BIGINT, product_id BIGINT, title TEXT, sku_name TEXT, cover_url TEXT,
               price_cents BIGINT, quantity BIGINT, selected SMALLINT, status TEXT, stock BIGINT)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_sku BIGINT;
    v_quantity BIGINT;
    v_total BIGINT;
    v_found BIGINT;
    v_status TEXT;
    v_stock BIGINT;
    v_title TEXT;
    v_name TEXT;
    v_new_quantity BIGINT;
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    PERFORM pg_advisory_xact_lock(hashtextextended(p_lock_key, 0));
    SELECT c.sku_id, c.quantity INTO v_sku, v_quantity FROM cart_items c WHERE c.id = p_line AND c.user_id = p_user;
    IF v_sku IS NULL THEN
        RETURN QUERY SELECT 'line_not_found', NULL::BIGINT, NULL::BIGINT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT,
                            NULL::BIGINT, NULL::BIGINT, NULL::SMALLINT, NULL::TEXT, NULL::BIGINT;
        RETURN;
    END IF;
    IF p_quantity IS NOT NULL AND p_quantity <> v_quantity THEN
        v_new_quantity := p_quantity;
    END IF;
    IF v_new_quantity > v_quantity THEN
        SELECT COALESCE(SUM(t.quantity), 0) INTO v_total FROM cart_items t WHERE t.user_id = p_user;
        IF v_total + (v_new_quantity - v_quantity) > p_max THEN
            RETURN QUERY SELECT 'limit_exceeded', NULL::BIGINT, v_sku, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT,
                                NULL::BIGINT, NULL::BIGINT, NULL::SMALLINT, NULL::TEXT, NULL::BIGINT;
            RETURN;
        END IF;
        SELECT s.id, CASE WHEN p.status = 'on_sale' AND s.status = 'on_sale' THEN 'on_sale' ELSE 'off_sale' END,
               s.stock, p.title, s.name
          INTO v_found, v_status, v_stock, v_title, v_name
          FROM skus s JOIN products p ON p.id = s.product_id WHERE s.id = v_sku;
        IF v_found IS NULL OR v_status <> 'on_sale' THEN
            RETURN QUERY SELECT 'sku_not_found', NULL::BIGINT, v_sku, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT,
                                NULL::BIGINT, NULL::BIGINT, NULL::SMALLINT, NULL::TEXT, NULL::BIGINT;
            RETURN;
        END IF;
        IF v_new_quantity > v_stock THEN
            RETURN QUERY SELECT 'out_of_stock', NULL::BIGINT, v_sku, NULL::BIGINT, v_title, v_name, NULL::TEXT,
                                NULL::BIGINT, NULL::BIGINT, NULL::SMALLINT, v_status, v_stock;
            RETURN;
        END IF;
    END IF;
    IF v_new_quantity IS NOT NULL OR p_selected IS NOT NULL THEN
        UPDATE cart_items SET quantity = COALESCE(v_new_quantity, quantity), selected = COALESCE(p_selected, selected),
                              updated_at = p_now
        WHERE id = p_line AND user_id = p_user;
    END IF;
    RETURN QUERY SELECT * FROM cart_lines_after('updated', p_user);
END
$$;

CREATE FUNCTION cart_remove(p_user BIGINT, p_line BIGINT)
RETURNS TABLE (outcome TEXT, id BIGINT, sku_id BIGINT, product_id BIGINT, title TEXT, sku_name TEXT, cover_url TEXT,
               price_cents BIGINT, quantity BIGINT, selected SMALLINT, status TEXT, stock BIGINT)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    DELETE FROM cart_items WHERE id = p_line AND user_id = p_user;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'line_not_found', NULL::BIGINT, NULL::BIGINT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT,
                            NULL::BIGINT, NULL::BIGINT, NULL::SMALLINT, NULL::TEXT, NULL::BIGINT;
        RETURN;
    END IF;
    RETURN QUERY SELECT * FROM cart_lines_after('removed', p_user);
END
$$;

CREATE FUNCTION cart_clear(p_user BIGINT) RETURNS VOID
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    DELETE FROM cart_items WHERE user_id = p_user;
END
$$;
