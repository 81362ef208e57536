-- A checkout's stock UPDATE no longer recomputes its product from every SKU (issue 33). Each
-- change of a SKU's stock ran products_refresh_from_skus (0002, 0033): a FOR UPDATE of the
-- product, then three subqueries over its SKUs for the list price, the original price and the
-- total stock. When only the stock moved, price and original price cannot have changed, and the
-- total moves by exactly the SKU's own change when the SKU is on sale (an off-sale SKU counts for
-- nothing), so the product's row is updated by that difference: same rows, same values, same
-- lock on the product, a fraction of the work. Any other change (price, original price, status,
-- product) still refreshes the product from its SKUs as before. The products row trigger
-- (catalog_changes_products_update, 0041) still sees the total cross zero and moves the counters.
-- SQLite keeps its triggers (0043 there is a comment): its recompute runs in process.

DROP TRIGGER skus_after_update ON skus;
CREATE TRIGGER skus_after_update AFTER UPDATE OF price_cents, original_price_cents, stock, product_id, status ON skus
    FOR EACH ROW
    WHEN (OLD.product_id IS DISTINCT FROM NEW.product_id OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.price_cents IS DISTINCT FROM NEW.price_cents
          OR OLD.original_price_cents IS DISTINCT FROM NEW.original_price_cents)
    EXECUTE FUNCTION skus_refresh_product();

CREATE FUNCTION skus_move_product_stock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE products SET total_stock = total_stock + (NEW.stock - OLD.stock) WHERE id = NEW.product_id;
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
