-- A counter that moves whenever the set of listed products or their prices can change, so list
-- totals (a COUNT over every on-sale product) can be cached until it moves. Stock changes from
-- orders do not move it: they change no list's membership.
CREATE TABLE catalog_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, 0);

CREATE TRIGGER catalog_version_on_insert AFTER INSERT ON products BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER catalog_version_on_update AFTER UPDATE OF status, category_id, price_cents ON products
WHEN OLD.status IS NOT NEW.status OR OLD.category_id IS NOT NEW.category_id OR OLD.price_cents IS NOT NEW.price_cents
BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER catalog_version_on_delete AFTER DELETE ON products BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER catalog_version_on_category AFTER INSERT ON categories BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
END;
