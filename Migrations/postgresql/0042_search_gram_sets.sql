-- The one- and two-character strings of an on-sale product's folded fields move from search_grams
-- (one row per gram and product: ~2 million rows for the bench's 25,000 products, under a primary
-- key and an index by product) to search_gram_sets: one row per product holding its grams in one
-- array under a GIN index. Each element is the digit of the first field holding the gram (0 title,
-- 1 subtitle, 2 description) followed by the gram, so `grams @> '{1玫}'` is the products whose best
-- field for 玫 is the subtitle (one search tier, as search_grams' rows with field 1 were) and
-- `grams && '{0玫,1玫,2玫}'` every product holding it. Writing 2 million rows into two B-trees was
-- most of a 100,000-SKU import's time (one INSERT, 36 of its 56 s on a loaded machine); 25,000
-- arrays reach the GIN index through its pending list, merged in sorted batches.
-- search_gram_counts holds how many products hold each element: a search's tier sizes, which
-- search_grams gave from its primary key alone and a GIN index cannot (it would read every
-- matching row: 20-300 ms for a common character against 1-5 ms). Written with the sets, in the
-- same statements (PostgreSQLSearch.reindex / rebuild, and the delete trigger below).
-- Built here for the products already indexed. The SQLite file of this number changes nothing
-- (its FTS5 table holds its grams).
CREATE TABLE search_gram_sets (
    product_id BIGINT PRIMARY KEY,
    grams TEXT[] COLLATE "C" NOT NULL
);

CREATE TABLE search_gram_counts (
    element TEXT COLLATE "C" PRIMARY KEY,
    products BIGINT NOT NULL CHECK (products >= 0)
);

INSERT INTO search_gram_sets (product_id, grams)
SELECT t.product_id, ARRAY(
    SELECT DISTINCT ON (g.gram) f.field || g.gram
    FROM (VALUES ('0', string_to_array(t.title, NULL)), ('1', string_to_array(t.subtitle, NULL)),
                 ('2', string_to_array(t.description, NULL))) AS f(field, c)
    CROSS JOIN LATERAL unnest(f.c, f.c[2:]) AS u(a, b)
    CROSS JOIN LATERAL (VALUES (u.a COLLATE "C"), (u.a || u.b COLLATE "C")) AS g(gram)
    WHERE g.gram IS NOT NULL
    ORDER BY g.gram, f.field)
FROM search_texts t ORDER BY t.product_id;

INSERT INTO search_gram_counts (element, products)
SELECT e, COUNT(*) FROM search_gram_sets, unnest(grams) AS e GROUP BY e;

CREATE INDEX search_gram_sets_grams ON search_gram_sets USING gin (grams);

-- Like search_grams since 0038, no foreign key (a check per row for rows that SearchIndex alone
-- writes from products): deleting products deletes their sets, and their counts, once per statement.
CREATE OR REPLACE FUNCTION search_grams_forget_deleted_products() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    WITH gone AS (DELETE FROM search_gram_sets WHERE product_id IN (SELECT id FROM deleted_products) RETURNING grams)
    UPDATE search_gram_counts c SET products = c.products - d.products
    FROM (SELECT e AS element, COUNT(*) AS products FROM gone, unnest(gone.grams) AS e GROUP BY e) AS d
    WHERE c.element = d.element;
    RETURN NULL;
END
$$;

DROP TABLE search_grams;
