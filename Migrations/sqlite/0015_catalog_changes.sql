-- Counters that move on every change to what a catalogue response shows: a product, its SKUs
-- (stock and price included), its images, a category. Caches of encoded catalogue responses and
-- their ETags are keyed by them, so a write through any node, in any code path (orders,
-- cancellations, the expiry sweep, imports, an operator's own SQL), is seen on the next request
-- through every node. catalog_version (0008) is left as it is: it moves only when a list's
-- membership can change, so list totals stay cached across orders.
-- 64 counters, one per product_id % 64, rather than one row: on PostgreSQL every order would
-- otherwise queue on that row until it commits. A product page reads its own counter, a list
-- or the category tree their sum (every change raises the sum, nothing lowers it).
CREATE TABLE catalog_changes (
    shard INTEGER PRIMARY KEY CHECK (shard >= 0 AND shard < 64),
    version INTEGER NOT NULL
);
WITH RECURSIVE shards(shard) AS (SELECT 0 UNION ALL SELECT shard + 1 FROM shards WHERE shard < 63)
INSERT INTO catalog_changes (shard, version) SELECT shard, 0 FROM shards;

CREATE TRIGGER catalog_changes_product_insert AFTER INSERT ON products BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard = NEW.id % 64;
END;
CREATE TRIGGER catalog_changes_product_update AFTER UPDATE ON products BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard IN (OLD.id % 64, NEW.id % 64);
END;
CREATE TRIGGER catalog_changes_product_delete AFTER DELETE ON products BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard = OLD.id % 64;
END;

-- A SKU's price, stock or product, and any SKU added or removed, already update its products
-- row (skus_after_* in 0002), which moves the counter above; only its code and name do not.
CREATE TRIGGER catalog_changes_sku_update AFTER UPDATE OF code, name ON skus BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard IN (OLD.product_id % 64, NEW.product_id % 64);
END;

CREATE TRIGGER catalog_changes_image_insert AFTER INSERT ON product_images BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard = NEW.product_id % 64;
END;
CREATE TRIGGER catalog_changes_image_update AFTER UPDATE ON product_images BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard IN (OLD.product_id % 64, NEW.product_id % 64);
END;
CREATE TRIGGER catalog_changes_image_delete AFTER DELETE ON product_images BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard = OLD.product_id % 64;
END;

CREATE TRIGGER catalog_changes_category_insert AFTER INSERT ON categories BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard = NEW.id % 64;
END;
CREATE TRIGGER catalog_changes_category_update AFTER UPDATE ON categories BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard IN (OLD.id % 64, NEW.id % 64);
END;
CREATE TRIGGER catalog_changes_category_delete AFTER DELETE ON categories BEGIN
    UPDATE catalog_changes SET version = version + 1 WHERE shard = OLD.id % 64;
END;
