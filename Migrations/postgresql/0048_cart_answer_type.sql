-- One shape for the cart functions' answers (CartStore.changedLines reads it). After 0047, cart_add,
-- cart_update, cart_remove and cart_lines_after each spelled the same twelve-column RETURNS TABLE,
-- and every refusal spelled a row of twelve typed NULLs by hand (duplicates --change flagged them).
-- Here the columns are one composite type, cart_answer, that each returns a set of, and a refusal is
-- cart_refusal(outcome, sku[, title, sku name, status, stock]). The functions are dropped and made
-- again (a function's result type cannot be replaced); their arguments, rules, order, answers and
-- durability are 0047's:
--   cart_add: the buyer's lock; 'sku_not_found' (no such SKU, or it or its product off sale), then
--     'limit_exceeded' (the cart's items in all plus the quantity over p_max), then 'out_of_stock'
--     (the line's quantity after the add over the stock, with the title, the SKU's name and the
--     stock); else the line merged or inserted, answer 'added' and the lines.
--   cart_update: the buyer's lock; another buyer's line (or none) is 'line_not_found'; a raised
--     quantity checks the cap, then the sale status, then the stock; answer 'updated' and the lines.
--   cart_remove: 'line_not_found', else 'removed' and the lines left. cart_clear: answers nothing.
-- Each sets synchronous_commit off for its own transaction first (Durability.processCrash; see
-- 0047 for why not a function-level SET). cart_clear keeps 0047's body: it answers no rows.
--
-- Each of the four also plans its statements with enable_seqscan off (a function-level SET, which
-- lasts while it runs; the synchronous_commit it sets for the transaction is not restored by it).
-- PL/pgSQL plans a statement once per connection and keeps the plan, and on a cart_items table
-- analysed almost empty (a young shop whose carts autovacuum found emptied, pgbench's add + clear
-- after a VACUUM) it chose a sequential scan for every lookup by buyer: the cart's total, the
-- buyer's line of the SKU, the lines read and the clear's DELETE (EXPLAIN via auto_explain). Such
-- a scan reads every line the clears left dead until autovacuum comes, so each add and clear cost
-- more the longer the buyers shopped: heapgetpage was 12% of the backends' time (perf) in a
-- pgbench add + clear. With it off they use the (user_id, sku_id) and primary-key indexes, which
-- the planner picks anyway once the table is large. A table never analysed (a fresh database, as
-- bench/run.sh's) was already planned with bitmap scans of that index; those plans do not change.
-- SQLite's file of this number changes nothing: its cart changes run in process.
DROP FUNCTION cart_add(TEXT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT);
DROP FUNCTION cart_update(TEXT, BIGINT, BIGINT, BIGINT, SMALLINT, BIGINT, BIGINT);
DROP FUNCTION cart_remove(BIGINT, BIGINT);
DROP FUNCTION cart_lines_after(TEXT, BIGINT);

-- A row of a cart function's answer: a line of the cart after the change (CartStore.lines's
-- columns) labelled with the change's outcome, or one refusal (cart_refusal).
CREATE TYPE cart_answer AS (outcome TEXT, id BIGINT, sku_id BIGINT, product_id BIGINT, title TEXT, sku_name TEXT,
                            cover_url TEXT, price_cents BIGINT, quantity BIGINT, selected SMALLINT, status TEXT,
                            stock BIGINT);

-- A refused change's one row: its outcome and SKU, and for 'out_of_stock' what the error names
-- (the product's title, the SKU's name, its status and stock); every other column NULL.
CREATE FUNCTION cart_refusal(p_outcome TEXT, p_sku BIGINT, p_title TEXT DEFAULT NULL, p_name TEXT DEFAULT NULL,
                             p_status TEXT DEFAULT NULL, p_stock BIGINT DEFAULT NULL)
RETURNS cart_answer LANGUAGE sql IMMUTABLE AS $$
    SELECT ROW(p_outcome, NULL, p_sku, NULL, p_title, p_name, NULL, NULL, NULL, NULL, p_status, p_stock)::cart_answer
$$;

-- The cart's lines after a change, newest first, each labelled with the change's outcome (0047's,
-- with cart_answer's columns). STABLE, not STRICT and one SELECT: inlined into its callers' plans.
CREATE FUNCTION cart_lines_after(p_outcome TEXT, p_user BIGINT) RETURNS SETOF cart_answer
LANGUAGE sql STABLE AS $$
    SELECT p_outcome, c.id, c.sku_id, s.product_id, p.title, s.name, p.cover_url, s.price_cents, c.quantity,
           c.selected, CASE WHEN p.status = 'on_sale' AND s.status = 'on_sale' THEN 'on_sale' ELSE 'off_sale' END,
           s.stock
    FROM cart_items c JOIN skus s ON s.id = c.sku_id JOIN products p ON p.id = s.product_id
    WHERE c.user_id = p_user ORDER BY c.created_at DESC, c.id DESC
$$;

CREATE FUNCTION cart_add(p_lock_key TEXT, p_user BIGINT, p_sku BIGINT, p_quantity BIGINT, p_max BIGINT, p_now BIGINT)
RETURNS SETOF cart_answer LANGUAGE plpgsql SET enable_seqscan = off AS $$
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
        RETURN NEXT cart_refusal('sku_not_found', p_sku);
        RETURN;
    END IF;
    IF v_total + p_quantity > p_max THEN
        RETURN NEXT cart_refusal('limit_exceeded', p_sku);
        RETURN;
    END IF;
    IF COALESCE(v_line_quantity, 0) + p_quantity > v_stock THEN
        RETURN NEXT cart_refusal('out_of_stock', p_sku, v_title, v_name, v_status, v_stock);
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
RETURNS SETOF cart_answer LANGUAGE plpgsql SET enable_seqscan = off AS $$
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
        RETURN NEXT cart_refusal('line_not_found', NULL);
        RETURN;
    END IF;
    IF p_quantity IS NOT NULL AND p_quantity <> v_quantity THEN
        v_new_quantity := p_quantity;
    END IF;
    IF v_new_quantity > v_quantity THEN
        SELECT COALESCE(SUM(t.quantity), 0) INTO v_total FROM cart_items t WHERE t.user_id = p_user;
        IF v_total + (v_new_quantity - v_quantity) > p_max THEN
            RETURN NEXT cart_refusal('limit_exceeded', v_sku);
            RETURN;
        END IF;
        SELECT s.id, CASE WHEN p.status = 'on_sale' AND s.status = 'on_sale' THEN 'on_sale' ELSE 'off_sale' END,
               s.stock, p.title, s.name
          INTO v_found, v_status, v_stock, v_title, v_name
          FROM skus s JOIN products p ON p.id = s.product_id WHERE s.id = v_sku;
        IF v_found IS NULL OR v_status <> 'on_sale' THEN
            RETURN NEXT cart_refusal('sku_not_found', v_sku);
            RETURN;
        END IF;
        IF v_new_quantity > v_stock THEN
            RETURN NEXT cart_refusal('out_of_stock', v_sku, v_title, v_name, v_status, v_stock);
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
RETURNS SETOF cart_answer LANGUAGE plpgsql SET enable_seqscan = off AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    DELETE FROM cart_items WHERE id = p_line AND user_id = p_user;
    IF NOT FOUND THEN
        RETURN NEXT cart_refusal('line_not_found', NULL);
        RETURN;
    END IF;
    RETURN QUERY SELECT * FROM cart_lines_after('removed', p_user);
END
$$;

ALTER FUNCTION cart_clear(BIGINT) SET enable_seqscan = off;
