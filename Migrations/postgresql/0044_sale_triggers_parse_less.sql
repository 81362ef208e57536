-- A sale's stock UPDATE fires fewer and shorter trigger conditions (issue 33). PostgreSQL parses
-- each trigger's WHEN clause again in every statement that may fire it (and for the products row
-- of a sale, in every sale: that UPDATE runs inside skus_stock_moved). perf on the checkout bench
-- showed those parses (stringToNode under ExecARUpdateTriggers) at 3% of the server's CPU, for
-- conditions about columns a sale never sets. Each trigger below fires on exactly the same rows
-- as before; only which statements consider it changes:
--  * `UPDATE OF <columns>` makes a trigger considered only by statements that set one of them, so
--    a trigger whose condition is about prices, names or statuses is no longer considered (nor
--    its condition parsed) by a statement that sets only stock. A column's value can change only
--    if a statement sets it (neither table has a BEFORE trigger), so no firing is lost.
--  * catalog_changes_skus and catalog_changes_products_update (0041) each become two triggers:
--    the watched columns (same lists, same conditions), and the counter's crossing of zero
--    (`stock`, `total_stock`), the only part a sale can meet. Where both fire for one row,
--    catalog_changes_bump moves the counter once per transaction, as before.
--  * skus_after_update (0043) listed `stock` though its condition never looks at it.
--  * skus_stock_moved (0043) keeps in its WHEN only the stock's change; the rest of its condition
--    moves into its function, whose expressions are prepared once per session, not per statement.
-- SQLite's 0044 is a comment: its triggers run in process and were not measured as a cost.

DROP TRIGGER skus_after_update ON skus;
CREATE TRIGGER skus_after_update AFTER UPDATE OF price_cents, original_price_cents, product_id, status ON skus
    FOR EACH ROW
    WHEN (OLD.product_id IS DISTINCT FROM NEW.product_id OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.price_cents IS DISTINCT FROM NEW.price_cents
          OR OLD.original_price_cents IS DISTINCT FROM NEW.original_price_cents)
    EXECUTE FUNCTION skus_refresh_product();

-- Same lock and sum as 0043; the condition skus_after_update does not already cover is checked
-- here (that trigger refreshes the whole product, stock included, when it fires).
CREATE OR REPLACE FUNCTION skus_move_product_stock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'on_sale'
       AND OLD.product_id IS NOT DISTINCT FROM NEW.product_id AND OLD.status IS NOT DISTINCT FROM NEW.status
       AND OLD.price_cents IS NOT DISTINCT FROM NEW.price_cents
       AND OLD.original_price_cents IS NOT DISTINCT FROM NEW.original_price_cents THEN
        PERFORM 1 FROM products WHERE id = NEW.product_id FOR UPDATE;
        UPDATE products SET total_stock = COALESCE((SELECT SUM(s.stock) FROM skus s
                                                    WHERE s.product_id = NEW.product_id AND s.status = 'on_sale'), 0)
        WHERE id = NEW.product_id;
    END IF;
    RETURN NULL;
END
$$;
DROP TRIGGER skus_stock_moved ON skus;
CREATE TRIGGER skus_stock_moved AFTER UPDATE OF stock ON skus
    FOR EACH ROW
    WHEN (OLD.stock IS DISTINCT FROM NEW.stock)
    EXECUTE FUNCTION skus_move_product_stock();

DROP TRIGGER catalog_changes_skus ON skus;
CREATE TRIGGER catalog_changes_skus
    AFTER UPDATE OF id, product_id, code, name, price_cents, original_price_cents, status, created_at, updated_at ON skus
    FOR EACH ROW
    WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.product_id IS DISTINCT FROM NEW.product_id
          OR OLD.code IS DISTINCT FROM NEW.code OR OLD.name IS DISTINCT FROM NEW.name
          OR OLD.price_cents IS DISTINCT FROM NEW.price_cents OR OLD.original_price_cents IS DISTINCT FROM NEW.original_price_cents
          OR OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at
          OR OLD.updated_at IS DISTINCT FROM NEW.updated_at)
    EXECUTE FUNCTION catalog_changes_by_product();
CREATE TRIGGER catalog_changes_skus_stock AFTER UPDATE OF stock ON skus
    FOR EACH ROW
    WHEN ((OLD.stock > 0) IS DISTINCT FROM (NEW.stock > 0))
    EXECUTE FUNCTION catalog_changes_by_product();

DROP TRIGGER catalog_changes_products_update ON products;
CREATE TRIGGER catalog_changes_products_update
    AFTER UPDATE OF id, code, category_id, title, subtitle, description, cover_url, attributes, status, price_cents,
                    original_price_cents, created_at, updated_at, delivery ON products
    FOR EACH ROW
    WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.code IS DISTINCT FROM NEW.code OR OLD.category_id IS DISTINCT FROM NEW.category_id
          OR OLD.title IS DISTINCT FROM NEW.title OR OLD.subtitle IS DISTINCT FROM NEW.subtitle
          OR OLD.description IS DISTINCT FROM NEW.description OR OLD.cover_url IS DISTINCT FROM NEW.cover_url
          OR OLD.attributes IS DISTINCT FROM NEW.attributes OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.price_cents IS DISTINCT FROM NEW.price_cents OR OLD.original_price_cents IS DISTINCT FROM NEW.original_price_cents
          OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.updated_at IS DISTINCT FROM NEW.updated_at
          OR OLD.delivery IS DISTINCT FROM NEW.delivery)
    EXECUTE FUNCTION catalog_changes_by_id();
CREATE TRIGGER catalog_changes_products_stock AFTER UPDATE OF total_stock ON products
    FOR EACH ROW
    WHEN ((OLD.total_stock > 0) IS DISTINCT FROM (NEW.total_stock > 0))
    EXECUTE FUNCTION catalog_changes_by_id();
