-- A product's favourites count leaves its products row: every buyer's click wrote that row, which
-- moved catalog_changes and so the version of every catalogue list and page (one account toggling
-- a favourite cut the kept lists' throughput by two thirds). The count now lives here, out of
-- reach of the catalogue-change triggers; only the product page shows it, and it is versioned by
-- its own 64 counters (product_id % 64, never lowered), which a product page adds to its
-- catalog_changes row: a click reaches that product's page, never a list or the category tree.
-- PostgreSQL translation of Migrations/sqlite/0024_product_favorite_counts.sql.
CREATE TABLE product_favorite_counts (
    product_id BIGINT PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
    favorites_count BIGINT NOT NULL CHECK (favorites_count >= 0)
);
INSERT INTO product_favorite_counts (product_id, favorites_count)
SELECT id, favorites_count FROM products WHERE favorites_count > 0;

CREATE TABLE favorite_changes (
    shard BIGINT PRIMARY KEY CHECK (shard >= 0 AND shard < 64),
    version BIGINT NOT NULL
);
INSERT INTO favorite_changes (shard, version) SELECT shard, 0 FROM generate_series(0, 63) AS shard;

CREATE FUNCTION favorite_changes_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE favorite_changes SET version = version + 1 WHERE shard = OLD.product_id % 64;
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.product_id % 64 <> NEW.product_id % 64) THEN
        UPDATE favorite_changes SET version = version + 1 WHERE shard = NEW.product_id % 64;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER favorite_changes_counts AFTER INSERT OR UPDATE OR DELETE ON product_favorite_counts
    FOR EACH ROW EXECUTE FUNCTION favorite_changes_bump();

ALTER TABLE products DROP COLUMN favorites_count;
