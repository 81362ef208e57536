-- The search synonyms staff edit (PUT /admin/search/synonyms, issue 34): one row holding the whole
-- dictionary as its text (the format of Config/search_synonyms.txt). Without the row the shop uses
-- search.synonyms_path (default: the dictionary built into the binary). Which products a query finds
-- depends on it, and searches' counts, kept pages and every node's pinyin lexicon are kept per
-- catalogue version, so an edit moves catalog_version (0008, catalog_version_bump of 0018) and
-- catalog_changes (0015, shard 0) in the same transaction: every node sees it on its next search.
-- PostgreSQL translation of Migrations/sqlite/0036_search_synonyms.sql.
CREATE TABLE search_synonyms (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE FUNCTION search_synonyms_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM catalog_changes_bump(0);
    RETURN NULL;
END
$$;

CREATE TRIGGER search_synonyms_catalog_version AFTER INSERT OR UPDATE OR DELETE ON search_synonyms
    FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
CREATE TRIGGER search_synonyms_catalog_changes AFTER INSERT OR UPDATE OR DELETE ON search_synonyms
    FOR EACH ROW EXECUTE FUNCTION search_synonyms_changed();
