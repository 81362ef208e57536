-- A sale's stock UPDATE moves its product's total stock by the SKU's difference (issue 33). Each
-- stock-only change of a SKU on sale ran skus_move_product_stock (0043, 0044): a FOR UPDATE of
-- the product, then an UPDATE summing the product's SKUs on sale again. EXPLAIN ANALYZE of a
-- checkout's stock UPDATE gave that trigger 0.27-0.51 ms of the statement's 0.44-0.72 ms: two
-- statements of its own and an index scan of the product's SKUs. Now one statement adds
-- NEW.stock - OLD.stock to the product's total.
--
-- Why a difference is right: total_stock equals the stock of the product's SKUs on sale in every
-- committed state (each writer keeps it so). The UPDATE takes the product's row lock itself; a
-- concurrent sale of another SKU of the product makes it wait, and PostgreSQL then applies the
-- addition to the row that sale committed (READ COMMITTED re-reads the locked row's newest
-- version), so two sales of two SKUs each count once. The snapshot problem 0002 describes was a
-- subquery's sum read before the lock; an addition to the locked row reads nothing else.
--
-- When it would not be: 0043's import case. Row triggers run after the whole statement has
-- written its rows, so when one statement changes one SKU's price (a full refresh, which sums
-- every SKU's new stock) and another SKU's stock, the second SKU's difference is already in the
-- refreshed total, and adding it counted it twice. Every full refresh (products_refresh_from_skus)
-- now marks its transaction (`floral.stock_summed`, a setting local to the transaction, undone
-- with a rolled-back savepoint as the refresh itself is); a stock change in a transaction so
-- marked locks and sums as before. A checkout, a cancel, the desk's stock edit never refresh a
-- product, so they take the one-statement path; an import that refreshes takes the sum from then
-- on. A refresh that runs after a difference in the same statement sums everything anyway.
-- The rule of what a product's total is stays in products_refresh_from_skus and this function's
-- sum; the difference is only its shortcut when nothing in the transaction summed before it.
-- SQLite's 0049 is a comment: its triggers run in process (0043 there is a comment too).

CREATE OR REPLACE FUNCTION products_refresh_from_skus(product_ids BIGINT[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('floral.stock_summed', 'on', true);
    PERFORM 1 FROM products WHERE id = ANY (product_ids) ORDER BY id FOR UPDATE;
    UPDATE products p SET price_cents = n.price_cents, original_price_cents = n.original_price_cents,
                          total_stock = n.total_stock
    FROM (SELECT q.id, COALESCE(f.price_cents, 0) AS price_cents,
                 COALESCE(f.original_price_cents, 0) AS original_price_cents, COALESCE(t.stock, 0) AS total_stock
          FROM products q
          LEFT JOIN LATERAL (SELECT s.price_cents, s.original_price_cents FROM skus s WHERE s.product_id = q.id
                             ORDER BY s.status <> 'on_sale', s.price_cents, s.id LIMIT 1) AS f ON TRUE
          LEFT JOIN LATERAL (SELECT SUM(CASE WHEN s.status = 'on_sale' THEN s.stock ELSE 0 END) AS stock FROM skus s
                             WHERE s.product_id = q.id) AS t ON TRUE
          WHERE q.id = ANY (product_ids)) AS n
    WHERE p.id = n.id
      AND (p.price_cents, p.original_price_cents, p.total_stock)
          IS DISTINCT FROM (n.price_cents, n.original_price_cents, n.total_stock);
END
$$;

-- Same condition as 0044; then the difference, or (after a refresh in this transaction) 0043's
-- lock and sum.
CREATE OR REPLACE FUNCTION skus_move_product_stock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'on_sale'
       AND OLD.product_id IS NOT DISTINCT FROM NEW.product_id AND OLD.status IS NOT DISTINCT FROM NEW.status
       AND OLD.price_cents IS NOT DISTINCT FROM NEW.price_cents
       AND OLD.original_price_cents IS NOT DISTINCT FROM NEW.original_price_cents THEN
        IF current_setting('floral.stock_summed', true) IS DISTINCT FROM 'on' THEN
            UPDATE products SET total_stock = total_stock + (NEW.stock - OLD.stock) WHERE id = NEW.product_id;
        ELSE
            PERFORM 1 FROM products WHERE id = NEW.product_id FOR UPDATE;
            UPDATE products SET total_stock = COALESCE((SELECT SUM(s.stock) FROM skus s
                                                        WHERE s.product_id = NEW.product_id AND s.status = 'on_sale'), 0)
            WHERE id = NEW.product_id;
        END IF;
    END IF;
    RETURN NULL;
END
$$;
