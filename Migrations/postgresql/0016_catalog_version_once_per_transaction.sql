-- catalog_version (0008) moves once per transaction, however many products it inserts or
-- reprices, as catalog_changes (0015) already does. Readers see all of a transaction or none of
-- it, so once is enough; moving it for every row made a catalogue import of 25,000 products write
-- 50,000 versions of that one row in one transaction, each update walking past all the earlier
-- ones (PostgreSQL cannot prune versions its own open transaction made): the import took minutes.
-- The transaction-local setting remembers the move; a rolled-back savepoint forgets both.
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
