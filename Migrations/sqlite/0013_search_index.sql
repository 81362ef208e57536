-- Product search answers every query length from one FTS5 index over title, subtitle and
-- description (CatalogStore + Search/ProductSearch.swift).
--
-- The tokenizer `shop_grams` (Sources/CSQLiteGrams, registered on every connection) indexes each
-- character with the two- and three-character strings that start there, so one character finds
-- as much as three: the trigram table (0003) could not answer `玫瑰`, and the gram table beside it
-- held only titles and subtitles. Text is matched with ASCII letters folded to lower case and
-- nothing else changed, exactly like SQLite's lower() and PostgreSQL's search_fold().
--
-- The table holds on-sale products only, so counting matches needs no join. It keeps its own copy
-- of the text (so a row can be removed without being told the old text) and is written by
-- SearchIndex, in batches, by whoever changes a product's text or status (the catalogue import):
-- a trigger per product makes FTS5 flush a tiny segment at every statement and merge them all
-- (an import of 100,000 SKUs took 41.8 s that way, 21.7 s with one batch per 1,000 products).
DROP TRIGGER products_fts_insert;
DROP TRIGGER products_fts_delete;
DROP TRIGGER products_fts_update;
DROP TABLE products_fts;
DROP TABLE product_grams;

CREATE VIRTUAL TABLE search_fts USING fts5 (
    title, subtitle, description,
    columnsize = 0,
    tokenize = 'shop_grams'
);

INSERT INTO search_fts (rowid, title, subtitle, description)
SELECT id, title, subtitle, description FROM products WHERE status = 'on_sale';

-- A product deleted outright leaves the index with it (PostgreSQL: ON DELETE CASCADE).
CREATE TRIGGER search_fts_delete AFTER DELETE ON products BEGIN
    DELETE FROM search_fts WHERE rowid = OLD.id;
END;

-- Search totals are cached per catalog_version (like list totals): a product's text now moves it
-- too, since it changes which searches find the product.
CREATE TRIGGER catalog_version_on_text AFTER UPDATE OF title, subtitle, description ON products
WHEN OLD.title IS NOT NEW.title OR OLD.subtitle IS NOT NEW.subtitle OR OLD.description IS NOT NEW.description
BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
END;

-- Suggestions list the titles that start with what was typed: a range of this index.
CREATE INDEX products_by_search_title ON products (lower(title)) WHERE status = 'on_sale';

-- Hot keywords: per keyword and searcher, the last search that found something. The hot list
-- counts these rows of the last 7 days instead of every search logged (a busy week logged 100,000
-- searches and took 90 ms to rank); SearchStore.record keeps it beside search_queries.
CREATE TABLE search_keyword_searchers (
    keyword TEXT NOT NULL,
    searcher TEXT NOT NULL,
    last_found_at INTEGER NOT NULL,
    PRIMARY KEY (keyword, searcher)
) WITHOUT ROWID;
CREATE INDEX search_keyword_searchers_by_time ON search_keyword_searchers (last_found_at);

INSERT INTO search_keyword_searchers (keyword, searcher, last_found_at)
SELECT keyword, searcher, MAX(searched_at) FROM search_queries WHERE found = 1 GROUP BY keyword, searcher;
