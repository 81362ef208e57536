-- The search synonyms staff edit (PUT /admin/search/synonyms, issue 34): one row holding the whole
-- dictionary as its text (the format of Config/search_synonyms.txt). Without the row the shop uses
-- search.synonyms_path (default: the dictionary built into the binary). Which products a query finds
-- depends on it, and searches' counts, kept pages and every node's pinyin lexicon are kept per
-- catalogue version, so an edit moves catalog_version (0008) and catalog_changes (0015, shard 0)
-- in the same transaction: every node sees the new dictionary on its next search.
CREATE TABLE search_synonyms (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    body TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TRIGGER search_synonyms_on_insert AFTER INSERT ON search_synonyms BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
    UPDATE catalog_changes SET version = version + 1 WHERE shard = 0;
END;
CREATE TRIGGER search_synonyms_on_update AFTER UPDATE ON search_synonyms BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
    UPDATE catalog_changes SET version = version + 1 WHERE shard = 0;
END;
CREATE TRIGGER search_synonyms_on_delete AFTER DELETE ON search_synonyms BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
    UPDATE catalog_changes SET version = version + 1 WHERE shard = 0;
END;
