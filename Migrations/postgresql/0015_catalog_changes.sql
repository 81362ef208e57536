-- Counters that move on every change to what a catalogue response shows: a product, its SKUs
-- (stock and price included), its images, a category. Caches of encoded catalogue responses and
-- their ETags are keyed by them, so a write through any node, in any code path (orders,
-- cancellations, the expiry sweep, imports, an operator's own SQL), is seen on the next request
-- through every node. catalog_version (0008) is left as it is: it moves only when a list's
-- membership can change, so list totals stay cached across orders.
-- 64 counters, one per product_id % 64, rather than one row: every order would otherwise queue
-- on that row until it commits. A product page reads its own counter, a list or the category
-- tree their sum (every change raises the sum, nothing lowers it).
-- PostgreSQL translation of Migrations/sqlite/0015_catalog_changes.sql, with one difference: a
-- transaction moves each counter once, however many rows it changes (readers see all of a
-- transaction or none of it, so once is enough), which keeps a bulk import from piling up
-- thousands of versions of the same 64 rows.
CREATE TABLE catalog_changes (
    shard BIGINT PRIMARY KEY CHECK (shard >= 0 AND shard < 64),
    version BIGINT NOT NULL
);
INSERT INTO catalog_changes (shard, version) SELECT shard, 0 FROM generate_series(0, 63) AS shard;

-- The transaction-local setting shop.catalog_changed_<shard> remembers that this transaction
-- has moved that counter (a rolled-back savepoint forgets the setting with the update).
CREATE FUNCTION catalog_changes_bump(changed BIGINT) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    marker TEXT := 'shop.catalog_changed_' || (changed % 64);
BEGIN
    IF current_setting(marker, true) IS DISTINCT FROM 'y' THEN
        UPDATE catalog_changes SET version = version + 1 WHERE shard = changed % 64;
        PERFORM set_config(marker, 'y', true);
    END IF;
END
$$;

-- Rows keyed by their own id (products, categories).
CREATE FUNCTION catalog_changes_by_id() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN PERFORM catalog_changes_bump(OLD.id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM catalog_changes_bump(NEW.id); END IF;
    RETURN NULL;
END
$$;

-- Rows of a product (SKU names and codes, images).
CREATE FUNCTION catalog_changes_by_product() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN PERFORM catalog_changes_bump(OLD.product_id); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM catalog_changes_bump(NEW.product_id); END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER catalog_changes_products AFTER INSERT OR UPDATE OR DELETE ON products
    FOR EACH ROW EXECUTE FUNCTION catalog_changes_by_id();
CREATE TRIGGER catalog_changes_categories AFTER INSERT OR UPDATE OR DELETE ON categories
    FOR EACH ROW EXECUTE FUNCTION catalog_changes_by_id();
-- A SKU's price, stock or product, and any SKU added or removed, already update its products
-- row (skus_refresh_product in 0002), which moves the counter; only its code and name do not.
CREATE TRIGGER catalog_changes_skus AFTER UPDATE OF code, name ON skus
    FOR EACH ROW EXECUTE FUNCTION catalog_changes_by_product();
CREATE TRIGGER catalog_changes_product_images AFTER INSERT OR UPDATE OR DELETE ON product_images
    FOR EACH ROW EXECUTE FUNCTION catalog_changes_by_product();
