-- A SKU can be taken off sale on its own (the 99-rose size for the season, one colour that ran
-- out at the grower) while its product stays on sale with its other SKUs. Buyers see only the
-- SKUs on sale; a product's list price and stock (products_refresh_from_skus, 0002) now come from
-- its SKUs on sale: the cheapest on-sale SKU gives the price (any SKU when none is on sale, so
-- the desk still shows one), and only on-sale stock counts, so a product whose SKUs are all off
-- sale lists as sold out.
ALTER TABLE skus ADD COLUMN status TEXT NOT NULL DEFAULT 'on_sale' CHECK (status IN ('on_sale', 'off_sale'));

CREATE OR REPLACE FUNCTION products_refresh_from_skus(product_ids BIGINT[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM products WHERE id = ANY (product_ids) ORDER BY id FOR UPDATE;
    UPDATE products SET
        price_cents = COALESCE((SELECT s.price_cents FROM skus s WHERE s.product_id = products.id
                                ORDER BY s.status <> 'on_sale', s.price_cents, s.id LIMIT 1), 0),
        original_price_cents = COALESCE((SELECT s.original_price_cents FROM skus s WHERE s.product_id = products.id
                                         ORDER BY s.status <> 'on_sale', s.price_cents, s.id LIMIT 1), 0),
        total_stock = COALESCE((SELECT SUM(CASE WHEN s.status = 'on_sale' THEN s.stock ELSE 0 END) FROM skus s
                                WHERE s.product_id = products.id), 0)
    WHERE id = ANY (product_ids);
END
$$;

DROP TRIGGER skus_after_update ON skus;
CREATE TRIGGER skus_after_update AFTER UPDATE OF price_cents, original_price_cents, stock, product_id, status ON skus
    FOR EACH ROW EXECUTE FUNCTION skus_refresh_product();
