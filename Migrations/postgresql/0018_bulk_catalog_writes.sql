-- Two changes so that writing many catalogue rows in one transaction (the catalogue import) costs
-- in proportion to the rows, not per row in triggers; readers see all of a transaction or none of
-- it, so nothing they can observe changes.
--
-- 1. catalog_version (0008) moves once per transaction, however many products it inserts or
-- reprices, as catalog_changes (0015) already does. Moving it for every row made an import of
-- 25,000 products write 50,000 versions of that one row in one transaction, each update walking
-- past the earlier ones (PostgreSQL cannot prune versions its own open transaction made). The
-- transaction-local setting remembers the move; a rolled-back savepoint forgets both.
CREATE OR REPLACE FUNCTION catalog_version_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('shop.catalog_version_moved', true) IS DISTINCT FROM 'y' THEN
        UPDATE catalog_version SET version = version + 1 WHERE id = 1;
        PERFORM set_config('shop.catalog_version_moved', 'y', true);
    END IF;
    RETURN NULL;
END
$$;

-- 2. Inserted SKUs refresh their products' lowest price and stock once per INSERT statement, for
-- all the products it touched, instead of once per SKU row: a multi-row INSERT of 256 SKUs of
-- 64 products runs one UPDATE of 64 product rows, not 256 (each a new version of a product row
-- and of its seven index entries). products_refresh_from_skus (0002) still locks the product
-- rows in id order first. Updates and deletes keep their row triggers (an UPDATE OF column list
-- cannot have a transition table, and they come one at a time from orders anyway).
DROP TRIGGER skus_after_insert ON skus;

CREATE FUNCTION skus_refresh_products_of_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM products_refresh_from_skus(ARRAY(SELECT DISTINCT product_id FROM inserted_skus));
    RETURN NULL;
END
$$;

CREATE TRIGGER skus_after_insert AFTER INSERT ON skus REFERENCING NEW TABLE AS inserted_skus
    FOR EACH STATEMENT EXECUTE FUNCTION skus_refresh_products_of_inserted();
