-- Per-click counters no longer move the catalogue's change counters (catalog_changes, 0015): an
-- order's sales and stock, a buyer's favourite. Every sale moved them, so every kept list, search
-- and product page was read again after each order. A kept body now shows those counters up to a
-- few seconds old (the HTTP layer reads a body again after `CatalogController.countersMaxAge`),
-- while what a buyer decides on still moves the counters at once: a price, a title, a status, any
-- SKU added, removed or changed, and stock reaching zero or coming back from it.
-- PostgreSQL translation of Migrations/sqlite/0041_counters_keep_pages.sql, plus the notification
-- that tells every `shop serve` node a change committed (below).
--
-- The UPDATE triggers list the columns that matter rather than the counters that do not, so a
-- column added later counts as a change until it is said otherwise: a test compares these lists
-- with the tables' columns (CatalogChangeTriggerTests).

DROP TRIGGER catalog_changes_products ON products;
CREATE TRIGGER catalog_changes_products AFTER INSERT OR DELETE ON products
    FOR EACH ROW EXECUTE FUNCTION catalog_changes_by_id();
CREATE TRIGGER catalog_changes_products_update AFTER UPDATE ON products FOR EACH ROW
    WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.code IS DISTINCT FROM NEW.code OR OLD.category_id IS DISTINCT FROM NEW.category_id
          OR OLD.title IS DISTINCT FROM NEW.title OR OLD.subtitle IS DISTINCT FROM NEW.subtitle
          OR OLD.description IS DISTINCT FROM NEW.description OR OLD.cover_url IS DISTINCT FROM NEW.cover_url
          OR OLD.attributes IS DISTINCT FROM NEW.attributes OR OLD.status IS DISTINCT FROM NEW.status
          OR OLD.price_cents IS DISTINCT FROM NEW.price_cents OR OLD.original_price_cents IS DISTINCT FROM NEW.original_price_cents
          OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.updated_at IS DISTINCT FROM NEW.updated_at
          OR OLD.delivery IS DISTINCT FROM NEW.delivery
          OR (OLD.total_stock > 0) IS DISTINCT FROM (NEW.total_stock > 0))
    EXECUTE FUNCTION catalog_changes_by_id();

-- A SKU's own change: until now only its code and name moved the counters here, the rest through
-- its product's row (price and stock recomputed), which no longer moves them for a stock change
-- or for a SKU that is not the product's cheapest.
DROP TRIGGER catalog_changes_skus ON skus;
CREATE TRIGGER catalog_changes_skus AFTER UPDATE ON skus FOR EACH ROW
    WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.product_id IS DISTINCT FROM NEW.product_id
          OR OLD.code IS DISTINCT FROM NEW.code OR OLD.name IS DISTINCT FROM NEW.name
          OR OLD.price_cents IS DISTINCT FROM NEW.price_cents OR OLD.original_price_cents IS DISTINCT FROM NEW.original_price_cents
          OR OLD.status IS DISTINCT FROM NEW.status OR OLD.created_at IS DISTINCT FROM NEW.created_at
          OR OLD.updated_at IS DISTINCT FROM NEW.updated_at
          OR (OLD.stock > 0) IS DISTINCT FROM (NEW.stock > 0))
    EXECUTE FUNCTION catalog_changes_by_product();

-- SKUs added or removed, once per statement (an import adds thousands in one).
CREATE FUNCTION catalog_changes_of_added_skus() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM catalog_changes_bump(shard) FROM (SELECT DISTINCT product_id % 64 AS shard FROM added_skus) AS shards;
    RETURN NULL;
END
$$;
CREATE FUNCTION catalog_changes_of_removed_skus() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM catalog_changes_bump(shard) FROM (SELECT DISTINCT product_id % 64 AS shard FROM removed_skus) AS shards;
    RETURN NULL;
END
$$;
CREATE TRIGGER catalog_changes_skus_added AFTER INSERT ON skus REFERENCING NEW TABLE AS added_skus
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_changes_of_added_skus();
CREATE TRIGGER catalog_changes_skus_removed AFTER DELETE ON skus REFERENCING OLD TABLE AS removed_skus
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_changes_of_removed_skus();

-- Favourites counts had counters of their own (0024) that a product page's version added; the
-- count is now a per-click counter like sales, so they go.
DROP TRIGGER favorite_changes_counts ON product_favorite_counts;
DROP FUNCTION favorite_changes_bump();
DROP TABLE favorite_changes;

-- Every node keeps the catalogue's versions in memory and checks kept answers against them
-- (PushedCatalogVersions): a change to either version table tells them at commit, once per
-- transaction (PostgreSQL folds equal notifications of one transaction into one), on channel
-- shop_catalog. A rolled-back transaction notifies no one.
CREATE FUNCTION catalog_versions_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('shop_catalog', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER catalog_changes_notify AFTER UPDATE ON catalog_changes
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_versions_notify();
CREATE TRIGGER catalog_version_notify AFTER UPDATE ON catalog_version
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_versions_notify();
