-- Product search answers every query length from an index over title, subtitle and description.
-- PostgreSQL translation of Migrations/sqlite/0013_search_index.sql, where one FTS5 table with the
-- `shop_grams` tokenizer does it all. Here queries of one or two characters read search_grams,
-- which now covers descriptions too; longer ones a pg_trgm index on search_texts, the folded text
-- of on-sale products. Both are written by SearchIndex (the catalogue import), not by triggers.
--
-- Text is matched with ASCII letters folded to lower case and nothing else changed (SQLite's
-- lower(), the tokenizer and SearchText.fold do the same), so both engines find the same products.
CREATE FUNCTION search_fold(t TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN translate(t, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');

-- Every one- and two-character string of an on-sale product's folded title (field 0), subtitle
-- (1) and description (2), once per product, under the first field that holds it: a query's rows
-- with field f are exactly the products whose best field for it is f, so the three tiers of a
-- search are three ranges of the primary key (counted from the index alone). Written from Swift
-- (SearchIndex, by the catalogue import), built once here for the products already there.
DROP TABLE product_grams;
CREATE TABLE search_grams (
    gram TEXT COLLATE "C" NOT NULL,
    field SMALLINT NOT NULL CHECK (field IN (0, 1, 2)),
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    PRIMARY KEY (gram, field, product_id)
);
CREATE INDEX search_grams_by_product ON search_grams (product_id);

INSERT INTO search_grams (gram, field, product_id)
SELECT gram, MIN(field), id FROM (
    SELECT p.id, f.field, substr(f.folded, i, k.width) AS gram
    FROM products p
    CROSS JOIN LATERAL (VALUES (0, search_fold(p.title)), (1, search_fold(p.subtitle)),
                               (2, search_fold(p.description))) AS f(field, folded)
    CROSS JOIN LATERAL generate_series(1, length(f.folded)) AS i
    CROSS JOIN (VALUES (1), (2)) AS k(width)
    WHERE p.status = 'on_sale' AND i + k.width - 1 <= length(f.folded)
) AS grams
GROUP BY gram, id;

-- The folded title, subtitle and description of each on-sale product (search_fold of each) under
-- one trigram index over the three joined by line breaks (no query holds one, so no match spans
-- two fields). It replaces the trigram indexes of 0003 on products: those rechecked lower() and
-- search_fold() of every candidate, and every non-HOT update of a product (an SKU's price or
-- stock, a sale) entered three long texts into them again. Searches read this narrow table, and
-- only when a product's text or status changes is it written.
DROP INDEX products_title_trgm;
DROP INDEX products_subtitle_trgm;
DROP INDEX products_description_trgm;
CREATE TABLE search_texts (
    product_id BIGINT PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    subtitle TEXT NOT NULL,
    description TEXT NOT NULL
);
INSERT INTO search_texts (product_id, title, subtitle, description)
SELECT id, search_fold(title), search_fold(subtitle), search_fold(description) FROM products WHERE status = 'on_sale';
-- (The pending list of new rows is merged by SearchIndex after each batch: gin_clean_pending_list.)
CREATE INDEX search_texts_trgm ON search_texts
    USING gin ((title || E'\n' || subtitle || E'\n' || description) gin_trgm_ops);

-- A search with thousands of matches walks on-sale products best-selling first and stops at the
-- page: that order must come from an index, ties (sales 0 is common) included.
DROP INDEX products_by_sales;
CREATE INDEX products_by_sales ON products (status, sales, id);

-- Search totals are cached per catalog_version (like list totals): a product's text now moves it
-- too, since it changes which searches find the product.
CREATE TRIGGER catalog_version_on_text AFTER UPDATE OF title, subtitle, description ON products
    FOR EACH ROW
    WHEN (OLD.title IS DISTINCT FROM NEW.title
          OR OLD.subtitle IS DISTINCT FROM NEW.subtitle
          OR OLD.description IS DISTINCT FROM NEW.description)
    EXECUTE FUNCTION catalog_version_bump();

-- Suggestions list the titles that start with what was typed: a range of this index.
CREATE INDEX products_by_search_title ON products ((search_fold(title) COLLATE "C")) WHERE status = 'on_sale';

-- Hot keywords: per keyword and searcher, the last search that found something. The hot list
-- counts these rows of the last 7 days instead of every search logged (a busy week logged 100,000
-- searches and took 90 ms to rank); SearchStore.record keeps it beside search_queries.
CREATE TABLE search_keyword_searchers (
    keyword TEXT NOT NULL,
    searcher TEXT NOT NULL,
    last_found_at BIGINT NOT NULL,
    PRIMARY KEY (keyword, searcher)
);
CREATE INDEX search_keyword_searchers_by_time ON search_keyword_searchers (last_found_at);

INSERT INTO search_keyword_searchers (keyword, searcher, last_found_at)
SELECT keyword, searcher, MAX(searched_at) FROM search_queries WHERE found = 1 GROUP BY keyword, searcher;
