-- A product's favourites count leaves its products row: every buyer's click wrote that row, which
-- moved catalog_changes and so the version of every catalogue list and page (one account toggling
-- a favourite cut the kept lists' throughput by two thirds). The count now lives here, out of
-- reach of the catalogue-change triggers; only the product page shows it, and it is versioned by
-- its own 64 counters (product_id % 64, never lowered), which a product page adds to its
-- catalog_changes row: a click reaches that product's page, never a list or the category tree.
CREATE TABLE product_favorite_counts (
    product_id INTEGER PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
    favorites_count INTEGER NOT NULL CHECK (favorites_count >= 0)
);
INSERT INTO product_favorite_counts (product_id, favorites_count)
SELECT id, favorites_count FROM products WHERE favorites_count > 0;

CREATE TABLE favorite_changes (
    shard INTEGER PRIMARY KEY CHECK (shard >= 0 AND shard < 64),
    version INTEGER NOT NULL
);
WITH RECURSIVE shards(shard) AS (SELECT 0 UNION ALL SELECT shard + 1 FROM shards WHERE shard < 63)
INSERT INTO favorite_changes (shard, version) SELECT shard, 0 FROM shards;

CREATE TRIGGER favorite_changes_insert AFTER INSERT ON product_favorite_counts BEGIN
    UPDATE favorite_changes SET version = version + 1 WHERE shard = NEW.product_id % 64;
END;
CREATE TRIGGER favorite_changes_update AFTER UPDATE ON product_favorite_counts BEGIN
    UPDATE favorite_changes SET version = version + 1 WHERE shard IN (OLD.product_id % 64, NEW.product_id % 64);
END;
CREATE TRIGGER favorite_changes_delete AFTER DELETE ON product_favorite_counts BEGIN
    UPDATE favorite_changes SET version = version + 1 WHERE shard = OLD.product_id % 64;
END;

-- (Dropping the column rewrites the table but fires no trigger: the versions stay where they are.)
ALTER TABLE products DROP COLUMN favorites_count;
