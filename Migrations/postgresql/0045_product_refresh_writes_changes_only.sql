-- products_refresh_from_skus (0002, 0033) writes a product only when its list price, original
-- price or total stock changes. It wrote every product it was given: a new row version under the
-- products table's eight indexes, and its row triggers (the category's foreign key is checked
-- again for a row inserted in the same transaction). An import inserting 100,000 SKUs for 25,000
-- new products rewrote all 25,000 rows once more in the SKUs' statement trigger (about 3 of an
-- import's 16 seconds); the import now inserts new products with the values the refresh gives
-- (StagedCatalogWrite), so the refresh finds nothing to change. The values themselves are chosen
-- as before: the cheapest SKU on sale (any SKU when none is on sale) by price then id, and the
-- stock on sale. A product whose values stay is not written: the triggers on products that watch
-- these columns all compare old and new, so they fired for no such row before either; the row
-- lock is still taken first, and the values are read in a statement of their own after it (0002
-- says why).
-- SQLite's file of this number changes nothing: its recompute (0033) runs in process.
CREATE OR REPLACE FUNCTION products_refresh_from_skus(product_ids BIGINT[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
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
