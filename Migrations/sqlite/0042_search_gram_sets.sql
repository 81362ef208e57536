-- PostgreSQL moves its one- and two-character grams from search_grams (a row per gram and product)
-- to search_gram_sets (one array per product under a GIN index). SQLite's search index is the FTS5
-- table search_fts, which holds its grams itself: nothing changes here.
SELECT 1;
