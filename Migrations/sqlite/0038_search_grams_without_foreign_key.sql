-- PostgreSQL's 0038 drops the foreign key of its gram table (search_grams), which a bulk import
-- paid for once per gram, and deletes a deleted product's grams from a statement trigger instead.
-- SQLite's search index is an FTS5 table (search_fts) with no such key: nothing changes here.
SELECT 1;
