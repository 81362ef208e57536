-- A checkout's stock UPDATE no longer recomputes its product's prices (issue 33). Each change of
-- a SKU's stock ran products_refresh_from_skus (0002, 0033): a FOR UPDATE of the product, then
-- three subqueries over its SKUs for the list price, the original price and the total stock.
-- When only the stock moved, price and original price cannot have changed: the product is locked
-- as before and only its total stock is summed again from its SKUs on sale. Any other change
-- (price, original price, status, product) still refreshes the product from its SKUs as before.
-- The products row trigger (catalog_changes_products_update, 0041) still sees the total cross zero
-- and moves the counters.
-- The total is summed, not moved by the SKU's difference: row triggers run once the whole
-- statement has written its rows, so in one statement that changes one SKU's price and another's
-- stock (an import) the product's full refresh already counts the other SKU's new stock, and
-- adding its difference again counted it twice (the cross-node test's stock-out after a price
-- import then left the product in stock). A sum is right however the two interleave.
-- SQLite keeps its triggers (0043 there is a comment): its recompute runs in process.

DROP TRIGGER skus_after_update ON skus;
CREATE TRIGGER skus_after_update AFTER UPDATE OF price_cents, original_price_cents, stock, product_id, status ON skus
    FOR EACH ROW
    WHEN (OLD.product_id IS DISTINCT FROM NEW.product_id OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.price_cents IS DISTINCT FROM NEW.price_cents
          OR OLD.original_price_cents IS DISTINCT FROM NEW.original_price_cents)
    EXECUTE FUNCTION skus_refresh_product();

-- The lock first, then the sum in a statement of its own (a new snapshot): it sees every
-- committed SKU change, as products_refresh_from_skus does (0002 says why).
CREATE FUNCTION skus_move_product_stock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM products WHERE id = NEW.product_id FOR UPDATE;
    UPDATE products SET total_stock = COALESCE((SELECT SUM(s.stock) FROM skus s
                                                WHERE s.product_id = NEW.product_id AND s.status = 'on_sale'), 0)
    WHERE id = NEW.product_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER skus_stock_moved AFTER UPDATE OF stock ON skus
    FOR EACH ROW
    WHEN (OLD.stock IS DISTINCT FROM NEW.stock AND NEW.status = 'on_sale'
          AND OLD.product_id IS NOT DISTINCT FROM NEW.product_id AND OLD.status IS NOT DISTINCT FROM NEW.status
          AND OLD.price_cents IS NOT DISTINCT FROM NEW.price_cents
          AND OLD.original_price_cents IS NOT DISTINCT FROM NEW.original_price_cents)
    EXECUTE FUNCTION skus_move_product_stock();
