-- A counter that moves whenever the set of listed products or their prices can change, so list
-- totals (a COUNT over every on-sale product) can be cached until it moves. Stock changes from
-- orders do not move it: they change no list's membership.
-- PostgreSQL translation of Migrations/sqlite/0008_catalog_version.sql: the four SQLite
-- triggers keep their names and fire on the same events; one function does the bump.
CREATE TABLE catalog_version (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, 0);

CREATE FUNCTION catalog_version_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER catalog_version_on_insert AFTER INSERT ON products
    FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();

-- SQLite's "OLD.x IS NOT NEW.x" is "IS DISTINCT FROM" here.
CREATE TRIGGER catalog_version_on_update AFTER UPDATE OF status, category_id, price_cents ON products
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status
          OR OLD.category_id IS DISTINCT FROM NEW.category_id
          OR OLD.price_cents IS DISTINCT FROM NEW.price_cents)
    EXECUTE FUNCTION catalog_version_bump();

CREATE TRIGGER catalog_version_on_delete AFTER DELETE ON products
    FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();

CREATE TRIGGER catalog_version_on_category AFTER INSERT ON categories
    FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
