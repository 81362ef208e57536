-- Per-click counters no longer move the catalogue's change counters (catalog_changes, 0015): an
-- order's sales and stock, a buyer's favourite. Every sale moved them, so every kept list, search
-- and product page was read again after each order, and a shop's evening of ~18 orders a second
-- cut its kept searches to a third. A kept body now shows those counters up to a few seconds old
-- (the HTTP layer reads a body again after `CatalogController.countersMaxAge`), while what a buyer
-- decides on still moves the counters at once: a price, a title, a status, any SKU added, removed
-- or changed, and stock reaching zero or coming back from it.
--
-- The UPDATE triggers list the columns that matter rather than the counters that do not, so a
-- column added later counts as a change until it is said otherwise: a test compares these lists
-- with the tables' columns (CatalogChangeTriggerTests).

DROP TRIGGER catalog_changes_product_update;
CREATE TRIGGER catalog_changes_product_update AFTER UPDATE ON products
WHEN OLD.id IS NOT NEW.id OR OLD.code IS NOT NEW.code OR OLD.category_id IS NOT NEW.category_id
    OR OLD.title IS NOT NEW.title OR OLD.subtitle IS NOT NEW.subtitle OR OLD.description IS NOT NEW.description
    OR OLD.cover_url IS NOT NEW.cover_url OR OLD.attributes IS NOT NEW.attributes OR OLD.status IS NOT NEW.status
    OR OLD.price_cents IS NOT NEW.price_cents OR OLD.original_price_cents IS NOT NEW.original_price_cents
    OR OLD.created_at IS NOT NEW.created_at OR OLD.updated_at IS NOT NEW.updated_at OR OLD.delivery IS NOT NEW.delivery
    OR (OLD.total_stock > 0) IS NOT (NEW.total_stock > 0)
BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard IN (OLD.id % 64, NEW.id % 64);
END;

-- A SKU's own change: until now only its code and name moved the counters here, the rest through
-- its product's row (price and stock recomputed by skus_after_*), which no longer moves them for a
-- stock change or for a SKU that is not the product's cheapest.
DROP TRIGGER catalog_changes_sku_update;
CREATE TRIGGER catalog_changes_sku_update AFTER UPDATE ON skus
WHEN OLD.id IS NOT NEW.id OR OLD.product_id IS NOT NEW.product_id OR OLD.code IS NOT NEW.code OR OLD.name IS NOT NEW.name
    OR OLD.price_cents IS NOT NEW.price_cents OR OLD.original_price_cents IS NOT NEW.original_price_cents
    OR OLD.status IS NOT NEW.status OR OLD.created_at IS NOT NEW.created_at OR OLD.updated_at IS NOT NEW.updated_at
    OR (OLD.stock > 0) IS NOT (NEW.stock > 0)
BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard IN (OLD.product_id % 64, NEW.product_id % 64);
END;
CREATE TRIGGER catalog_changes_sku_insert AFTER INSERT ON skus BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard = NEW.product_id % 64;
END;
CREATE TRIGGER catalog_changes_sku_delete AFTER DELETE ON skus BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard = OLD.product_id % 64;
END;

-- Favourites counts had counters of their own (0024) that a product page's version added; the
-- count is now a per-click counter like sales, so they go.
DROP TRIGGER favorite_changes_insert;
DROP TRIGGER favorite_changes_update;
DROP TRIGGER favorite_changes_delete;
DROP TABLE favorite_changes;
