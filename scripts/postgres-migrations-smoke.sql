-- Smoke test of Migrations/postgresql/ on a database that has just had every file applied:
--
--   createdb -T template0 -E UTF8 --locale=C.UTF-8 shop_smoke
--   for f in Migrations/postgresql/*.sql; do psql -v ON_ERROR_STOP=1 -1 -d shop_smoke -f "$f"; done
--   psql -v ON_ERROR_STOP=1 -d shop_smoke -f scripts/postgres-migrations-smoke.sql
--
-- Every check raises an exception when it fails (so ON_ERROR_STOP exits non-zero); the whole
-- run is one transaction that is rolled back, so the database is left as it was.
\set QUIET on
\pset pager off
-- results of the checks go nowhere (their NOTICEs say what passed); plans are shown
\o /dev/null
BEGIN;

CREATE TEMP TABLE smoke_version (at_start BIGINT);
INSERT INTO smoke_version SELECT version FROM catalog_version WHERE id = 1;

CREATE FUNCTION pg_temp.version_moved() RETURNS BIGINT LANGUAGE sql AS
    $$ SELECT (SELECT version FROM catalog_version WHERE id = 1) - (SELECT at_start FROM smoke_version) $$;

CREATE FUNCTION pg_temp.expect(ok BOOLEAN, what TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF ok IS NOT TRUE THEN RAISE EXCEPTION 'SMOKE FAILED: %', what; END IF;
    RAISE NOTICE 'ok: %', what;
END
$$;

-- The product (id) as the Swift side reads it: lowest price, its original price, stock on hand.
CREATE FUNCTION pg_temp.product_state(pid BIGINT) RETURNS TEXT LANGUAGE sql AS
    $$ SELECT price_cents || '/' || original_price_cents || '/' || total_stock FROM products WHERE id = pid $$;

------------------------------------------------------------------------------------------------
-- catalogue triggers (0002, 0008)
------------------------------------------------------------------------------------------------
INSERT INTO categories (id, name, parent_id, path, position) VALUES (9001, '花束', NULL, '花束', 0);
INSERT INTO categories (id, name, parent_id, path, position) VALUES (9002, '玫瑰', 9001, '花束/玫瑰', 0);
SELECT pg_temp.expect(pg_temp.version_moved() = 2, 'each new category moves catalog_version');

INSERT INTO products (id, code, category_id, title, subtitle, status, created_at, updated_at)
VALUES (9001, 'P-SMOKE-1', 9002, '红玫瑰花束', '十一枝', 'on_sale', 1700000000, 1700000000),
       (9002, 'P-SMOKE-2', 9002, '白玫瑰', '', 'on_sale', 1700000000, 1700000000);
SELECT pg_temp.expect(pg_temp.version_moved() = 4, 'each new product moves catalog_version');
SELECT pg_temp.expect(pg_temp.product_state(9001) = '0/0/0', 'a product without SKUs has price 0 and stock 0');

INSERT INTO skus (id, product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at)
VALUES (9001, 9001, 'S-SMOKE-1', '大束', 29900, 39900, 5, 1700000000, 1700000000);
SELECT pg_temp.expect(pg_temp.product_state(9001) = '29900/39900/5', 'first SKU sets price, original price and stock');
SELECT pg_temp.expect(pg_temp.version_moved() = 5, 'a price change moves catalog_version');

INSERT INTO skus (id, product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at)
VALUES (9002, 9001, 'S-SMOKE-2', '小束', 19900, 25900, 3, 1700000000, 1700000000),
       (9003, 9001, 'S-SMOKE-3', '中束', 19900, 99900, 2, 1700000000, 1700000000);
SELECT pg_temp.expect(pg_temp.product_state(9001) = '19900/25900/10',
                      'lowest price wins, ties broken by SKU id, stock summed');
SELECT pg_temp.expect(pg_temp.version_moved() = 6, 'an unchanged price (the tie) does not move catalog_version');

-- a checkout takes stock: the guard statement, then the product follows, the version does not move
DO $$
DECLARE n BIGINT;
BEGIN
    UPDATE skus SET stock = stock - 2 WHERE id = 9002 AND stock >= 2;
    GET DIAGNOSTICS n = ROW_COUNT;
    PERFORM pg_temp.expect(n = 1, 'taking stock that is there changes one row');
    UPDATE skus SET stock = stock - 5 WHERE id = 9002 AND stock >= 5;
    GET DIAGNOSTICS n = ROW_COUNT;
    PERFORM pg_temp.expect(n = 0, 'taking more stock than there is changes nothing');
END
$$;
SELECT pg_temp.expect(pg_temp.product_state(9001) = '19900/25900/8', 'total_stock follows a stock change');
SELECT pg_temp.expect(pg_temp.version_moved() = 6, 'a stock change does not move catalog_version');

-- the CHECKs: the last line of defence against overselling, and prices
DO $$
BEGIN
    UPDATE skus SET stock = stock - 100 WHERE id = 9001;
    RAISE EXCEPTION 'SMOKE FAILED: negative stock was accepted';
EXCEPTION WHEN check_violation THEN
    PERFORM pg_temp.expect(true, 'negative SKU stock is refused (check_violation)');
END
$$;
DO $$
BEGIN
    INSERT INTO skus (product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at)
    VALUES (9001, 'S-SMOKE-BAD', 'x', -1, 0, 0, 0, 0);
    RAISE EXCEPTION 'SMOKE FAILED: a negative price was accepted';
EXCEPTION WHEN check_violation THEN
    PERFORM pg_temp.expect(true, 'a negative SKU price is refused (check_violation)');
END
$$;
DO $$
BEGIN
    UPDATE products SET status = 'hidden' WHERE id = 9001;
    RAISE EXCEPTION 'SMOKE FAILED: an unknown status was accepted';
EXCEPTION WHEN check_violation THEN
    PERFORM pg_temp.expect(true, 'an unknown product status is refused (check_violation)');
END
$$;
DO $$
BEGIN
    INSERT INTO skus (product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at)
    VALUES (9002, 'S-SMOKE-1', 'dup', 1, 1, 1, 0, 0);
    RAISE EXCEPTION 'SMOKE FAILED: a duplicate SKU code was accepted';
EXCEPTION WHEN unique_violation THEN
    PERFORM pg_temp.expect(true, 'a duplicate SKU code is refused (unique_violation)');
END
$$;

-- moving a SKU to another product refreshes both (the import's updateSKU sets product_id)
UPDATE skus SET product_id = 9002 WHERE id = 9002;
SELECT pg_temp.expect(pg_temp.product_state(9001) = '19900/99900/7' AND pg_temp.product_state(9002) = '19900/25900/1',
                      'moving a SKU refreshes the old and the new product');
SELECT pg_temp.expect(pg_temp.version_moved() = 7, 'the moved product''s new price moves catalog_version once');

-- an UPDATE naming none of the watched SKU columns leaves the products alone
UPDATE skus SET name = '中束·改' WHERE id = 9003;
SELECT pg_temp.expect(pg_temp.product_state(9001) = '19900/99900/7', 'renaming a SKU changes nothing on the product');

DELETE FROM skus WHERE product_id = 9001;
SELECT pg_temp.expect(pg_temp.product_state(9001) = '0/0/0', 'deleting every SKU puts price and stock back to 0');
SELECT pg_temp.expect(pg_temp.version_moved() = 8, 'the price falling to 0 moves catalog_version');

UPDATE products SET title = '红玫瑰花束（新）', updated_at = updated_at + 1 WHERE id = 9001;
SELECT pg_temp.expect(pg_temp.version_moved() = 8, 'a title edit does not move catalog_version');
UPDATE products SET status = 'off_sale' WHERE id = 9001;
SELECT pg_temp.expect(pg_temp.version_moved() = 9, 'a status change moves catalog_version');
UPDATE products SET category_id = 9001 WHERE id = 9001;
SELECT pg_temp.expect(pg_temp.version_moved() = 10, 'a category change moves catalog_version');

INSERT INTO product_images (product_id, position, url) VALUES (9001, 0, 'https://img/1.jpg');
INSERT INTO product_grams (gram, product_id, field) VALUES ('红', 9001, 0), ('红玫', 9001, 0);
DELETE FROM products WHERE id = 9001;
SELECT pg_temp.expect(pg_temp.version_moved() = 11, 'a deleted product moves catalog_version');
SELECT pg_temp.expect(NOT EXISTS (SELECT 1 FROM product_images WHERE product_id = 9001)
                      AND NOT EXISTS (SELECT 1 FROM product_grams WHERE product_id = 9001),
                      'a deleted product takes its images and grams with it (ON DELETE CASCADE)');
DO $$
BEGIN
    DELETE FROM products WHERE id = 9002;
    RAISE EXCEPTION 'SMOKE FAILED: a product with SKUs was deleted';
EXCEPTION WHEN foreign_key_violation THEN
    PERFORM pg_temp.expect(true, 'a product with SKUs cannot be deleted (skus.product_id has no ON DELETE)');
END
$$;

------------------------------------------------------------------------------------------------
-- ids: BY DEFAULT identities take copied ids; the copy then resets the sequences
------------------------------------------------------------------------------------------------
INSERT INTO users (id, phone, nickname, password_hash, password_scheme, created_at, updated_at)
VALUES (9001, '13800009001', 'a', 'h', 's', 0, 0), (9002, '13800009002', 'b', 'h', 's', 0, 0);
SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT MAX(id) FROM users));
DO $$
DECLARE new_id BIGINT;
BEGIN
    INSERT INTO users (phone, nickname, password_hash, password_scheme, created_at, updated_at)
    VALUES ('13800009003', 'c', 'h', 's', 0, 0) RETURNING id INTO new_id;
    PERFORM pg_temp.expect(new_id = 9003, 'after setval a new user gets the next id (RETURNING id replaces last_insert_rowid)');
END
$$;

------------------------------------------------------------------------------------------------
-- the unique keys that INSERT OR IGNORE became ON CONFLICT DO NOTHING on, and the upsert
------------------------------------------------------------------------------------------------
INSERT INTO articles (id, author_id, title, content, published_at, created_at, updated_at)
VALUES (9001, 9001, '春天的花', '...', 0, 0, 0);
DO $$
DECLARE n BIGINT;
BEGIN
    INSERT INTO follows (follower_id, author_id, created_at) VALUES (9002, 9001, 0) ON CONFLICT DO NOTHING;
    INSERT INTO follows (follower_id, author_id, created_at) VALUES (9002, 9001, 1) ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    PERFORM pg_temp.expect(n = 0, 'a repeated follow inserts nothing');
    INSERT INTO article_likes (article_id, user_id, created_at) VALUES (9001, 9002, 0) ON CONFLICT DO NOTHING;
    INSERT INTO article_likes (article_id, user_id, created_at) VALUES (9001, 9002, 1) ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    PERFORM pg_temp.expect(n = 0, 'a repeated like inserts nothing');
    INSERT INTO article_views (article_id, viewer, day) VALUES (9001, 'u:9002', 19000) ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    PERFORM pg_temp.expect(n = 1, 'a first view of the day inserts a row');
    INSERT INTO article_views (article_id, viewer, day) VALUES (9001, 'u:9002', 19000) ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    PERFORM pg_temp.expect(n = 0, 'a repeated view of the day inserts nothing');
END
$$;
-- ArticleStore.countView's upsert. As SQLite takes it ("SET views = views + 1") PostgreSQL
-- refuses it: the bare column is ambiguous between the table and EXCLUDED. Qualified with the
-- table name it runs on both engines.
DO $$
BEGIN
    INSERT INTO article_view_days (article_id, day, views) VALUES (9001, 19000, 1)
    ON CONFLICT (article_id, day) DO UPDATE SET views = views + 1;
    RAISE EXCEPTION 'SMOKE FAILED: expected the unqualified upsert to be refused';
EXCEPTION WHEN ambiguous_column THEN
    PERFORM pg_temp.expect(true, 'ON CONFLICT ... SET views = views + 1 is ambiguous here: qualify it');
END
$$;
INSERT INTO article_view_days (article_id, day, views) VALUES (9001, 19000, 1)
ON CONFLICT (article_id, day) DO UPDATE SET views = article_view_days.views + 1;
INSERT INTO article_view_days (article_id, day, views) VALUES (9001, 19000, 1)
ON CONFLICT (article_id, day) DO UPDATE SET views = article_view_days.views + 1;
SELECT pg_temp.expect((SELECT views FROM article_view_days WHERE article_id = 9001 AND day = 19000) = 2,
                      'the view-days upsert counts up');
DO $$
BEGIN
    INSERT INTO follows (follower_id, author_id, created_at) VALUES (9001, 9001, 0) ON CONFLICT DO NOTHING;
    RAISE EXCEPTION 'SMOKE FAILED: a self-follow was accepted';
EXCEPTION WHEN check_violation THEN
    PERFORM pg_temp.expect(true, 'a self-follow is an error even with ON CONFLICT DO NOTHING (SQLite''s OR IGNORE hid it)');
END
$$;
DO $$
BEGIN
    INSERT INTO payment_events (provider, event_id, order_number, status, amount_cents, currency, outcome, raw_body, received_at)
    VALUES ('mockpay', 'ev-1', 'N1', 'succeeded', 100, 'CNY', 'unknown_order', '{}', 0),
           ('mockpay', 'ev-1', 'N1', 'succeeded', 100, 'CNY', 'unknown_order', '{}', 0);
    RAISE EXCEPTION 'SMOKE FAILED: a repeated payment event was accepted';
EXCEPTION WHEN unique_violation THEN
    PERFORM pg_temp.expect(true, 'a repeated payment event is a unique_violation (SQLSTATE 23505)');
END
$$;

-- at most one default address per user, cleared first as AddressStore.makeDefault does
INSERT INTO addresses (id, user_id, recipient, phone, province, city, district, detail, is_default, created_at, updated_at)
VALUES (9001, 9001, '张三', '13800009001', '北京', '北京', '朝阳', '一号', 1, 0, 0),
       (9002, 9001, '张三', '13800009001', '北京', '北京', '朝阳', '二号', 0, 0, 0);
DO $$
BEGIN
    UPDATE addresses SET is_default = 1 WHERE id = 9002;
    RAISE EXCEPTION 'SMOKE FAILED: a second default address was accepted';
EXCEPTION WHEN unique_violation THEN
    PERFORM pg_temp.expect(true, 'a second default address is refused (addresses_one_default)');
END
$$;
UPDATE addresses SET is_default = 0 WHERE user_id = 9001 AND is_default = 1 AND id <> 9002;
UPDATE addresses SET is_default = 1 WHERE id = 9002 AND user_id = 9001;
SELECT pg_temp.expect((SELECT id FROM addresses WHERE user_id = 9001 AND is_default = 1) = 9002,
                      'clearing then setting moves the default');
DO $$
BEGIN
    UPDATE addresses SET is_default = 2 WHERE id = 9001;
    RAISE EXCEPTION 'SMOKE FAILED: a flag of 2 was accepted';
EXCEPTION WHEN check_violation THEN
    PERFORM pg_temp.expect(true, 'a 0/1 flag refuses 2 (check_violation)');
END
$$;

------------------------------------------------------------------------------------------------
-- search (0003): enough products for the planner to prefer an index, then the query shapes
------------------------------------------------------------------------------------------------
-- the explicit ids above are what a copy leaves; like the copy, move the sequence past them
SELECT setval(pg_get_serial_sequence('products', 'id'), (SELECT MAX(id) FROM products));
SELECT setseed(0.15);
INSERT INTO products (code, category_id, title, subtitle, description, status, created_at, updated_at)
SELECT 'P-BULK-' || n, 9002,
       w[1 + (random() * 17)::int] || w[1 + (random() * 17)::int] || w[1 + (random() * 17)::int],
       w[1 + (random() * 17)::int] || ' ' || w[1 + (random() * 17)::int],
       repeat(w[1 + (random() * 17)::int] || '，' || w[1 + (random() * 17)::int] || '。', 5) || ' Fresh Flowers No.' || n,
       'on_sale', 1700000000 + n, 1700000000 + n
FROM generate_series(1, 20000) n
CROSS JOIN (SELECT ARRAY['百合', '向日葵', '康乃馨', '郁金香', '满天星', '绣球', '花束', '礼盒', '永生花', '多肉',
                           '绿植', '生日', '婚礼', '表白', '母亲节', '小雏菊', '香槟', '洋桔梗'] AS w) words;
-- a few products the queries below are about
INSERT INTO products (code, category_id, title, subtitle, status, created_at, updated_at)
SELECT 'P-ROSE-' || n, 9002, '红玫瑰' || n || '号', '十一枝 Red Roses', 'on_sale', 1700000000, 1700000000
FROM generate_series(1, 30) n;
-- product_grams as SearchStore.indexGrams writes them (title field 0, subtitle-only grams field 1);
-- SQL's lower() stands in for Swift's lowercased() here
INSERT INTO product_grams (gram, product_id, field)
SELECT DISTINCT ON (g.gram, p.id) g.gram, p.id, g.field
FROM products p
CROSS JOIN LATERAL (
    SELECT substr(lower(t.text), i, len) AS gram, t.field
    FROM (VALUES (p.title, 0), (p.subtitle, 1)) t(text, field),
         generate_series(1, length(t.text)) i, (VALUES (1), (2)) l(len)
    WHERE i + len - 1 <= length(t.text) AND substr(t.text, i, len) !~ '\s'
) g
ORDER BY g.gram, p.id, g.field;
-- Rows inserted into a GIN index go to its pending list first, which every search reads in
-- full until (auto)vacuum merges it; a bulk load in one transaction leaves it long, and the
-- planner rightly prices the index out. Merge it now, as autovacuum would after an import.
SELECT gin_clean_pending_list('products_title_trgm'::regclass), gin_clean_pending_list('products_subtitle_trgm'::regclass),
       gin_clean_pending_list('products_description_trgm'::regclass);
ANALYZE products;
ANALYZE product_grams;

-- The plan of a query, as one text.
CREATE FUNCTION pg_temp.plan(query TEXT) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE line TEXT; result TEXT := '';
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP result := result || line || E'\n'; END LOOP;
    RETURN result;
END
$$;

-- three characters or more: the trigram indexes answer, seq scans allowed
\echo '--- plan: 3-character Chinese query (红玫瑰), title, subtitle or description, seq scans allowed'
\o
EXPLAIN (COSTS OFF)
SELECT p.id FROM products p
WHERE p.status = 'on_sale'
  AND (lower(p.title) LIKE lower('%红玫瑰%') ESCAPE '\'
       OR lower(p.subtitle) LIKE lower('%红玫瑰%') ESCAPE '\'
       OR lower(p.description) LIKE lower('%红玫瑰%') ESCAPE '\');
\o /dev/null
SELECT pg_temp.expect(
    pg_temp.plan($q$SELECT p.id FROM products p WHERE p.status = 'on_sale'
                    AND (lower(p.title) LIKE lower('%红玫瑰%') ESCAPE '\'
                         OR lower(p.subtitle) LIKE lower('%红玫瑰%') ESCAPE '\'
                         OR lower(p.description) LIKE lower('%红玫瑰%') ESCAPE '\')$q$)
        ~ 'products_title_trgm' ,
    'a 3-character CJK query uses the trigram indexes without any planner setting');
SELECT pg_temp.expect(
    (SELECT COUNT(*) FROM products p WHERE lower(p.title) LIKE lower('%红玫瑰%') ESCAPE '\') = 30,
    'the 3-character query finds the 30 red-rose products');
SELECT pg_temp.expect(
    (SELECT COUNT(*) FROM products p WHERE lower(p.subtitle) LIKE lower('%RED ROSES%') ESCAPE '\') = 30,
    'Latin matching is case-insensitive through lower() on both sides');
SELECT pg_temp.expect(
    pg_temp.plan($q$SELECT p.id FROM products p WHERE lower(p.subtitle) LIKE lower('%RED ROSES%') ESCAPE '\'$q$)
        ~ 'products_subtitle_trgm',
    'a Latin query uses the subtitle trigram index');

-- one or two characters: no trigram to look up; the GIN index is usable (prove it with seq
-- scans off) but it reads every entry. product_grams is the index that answers them.
SET LOCAL enable_seqscan = off;
\echo '--- plan: 2-character Chinese query (玫瑰) through the trigram index, enable_seqscan = off'
\o
EXPLAIN (COSTS OFF)
SELECT p.id FROM products p WHERE lower(p.title) LIKE lower('%玫瑰%') ESCAPE '\';
\o /dev/null
SELECT pg_temp.expect(
    pg_temp.plan($q$SELECT p.id FROM products p WHERE lower(p.title) LIKE lower('%玫瑰%') ESCAPE '\'$q$)
        ~ 'Bitmap Index Scan on products_title_trgm',
    'a 2-character CJK LIKE can use the title trigram index (a full index scan: no trigram to look up)');
SELECT pg_temp.expect(
    pg_temp.plan($q$SELECT p.id FROM products p WHERE lower(p.title) LIKE lower('%玫%') ESCAPE '\'$q$)
        ~ 'Bitmap Index Scan on products_title_trgm',
    'so can a 1-character CJK LIKE');
RESET enable_seqscan;

\echo '--- plan: 2-character Chinese query (玫瑰) through product_grams, the short-query path, seq scans allowed'
\o
EXPLAIN (COSTS OFF)
SELECT p.id, COUNT(*) OVER () AS total
FROM (SELECT product_id AS pid, MIN(field) AS tier, 0.0 AS score FROM product_grams
      WHERE gram = lower('玫瑰') GROUP BY product_id) m
JOIN products p ON p.id = m.pid
WHERE p.status = 'on_sale'
ORDER BY m.tier, m.score, p.sales DESC, p.id DESC LIMIT 20 OFFSET 0;
\o /dev/null
SELECT pg_temp.expect(
    pg_temp.plan($q$SELECT product_id FROM product_grams WHERE gram = lower('玫瑰')$q$) ~ 'product_grams_pkey',
    'a 2-character query finds its products through the product_grams primary key');
SELECT pg_temp.expect(
    (SELECT COUNT(DISTINCT product_id) FROM product_grams WHERE gram = lower('玫瑰'))
        = (SELECT COUNT(*) FROM products p WHERE lower(p.title) LIKE '%玫瑰%' OR lower(p.subtitle) LIKE '%玫瑰%'),
    'product_grams and LIKE agree on a 2-character query');

ROLLBACK;
\echo 'postgres-migrations-smoke: all checks passed (rolled back)'
