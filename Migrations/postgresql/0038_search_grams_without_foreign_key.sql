-- search_grams (0013) holds rows that SearchIndex alone writes, each made from a products row in
-- the same statement that reads it; its foreign key to products added nothing to that but a check
-- per row (a lookup of the product and a FOR KEY SHARE lock on it): an import of 100,000 SKUs
-- writes 2 million grams, and the checks were 60% of that INSERT's time (measured with and without
-- the key on the same rows: 72 s against 27 s on the loaded 2-core dev machine).
-- The key's ON DELETE CASCADE becomes a statement trigger: deleting products still deletes their
-- grams, once per statement. search_texts (one row per product) keeps its foreign key.
-- The SQLite file of this number changes nothing: its index is an FTS5 table without such a key.
ALTER TABLE search_grams DROP CONSTRAINT search_grams_product_id_fkey;

CREATE FUNCTION search_grams_forget_deleted_products() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM search_grams WHERE product_id IN (SELECT id FROM deleted_products);
    RETURN NULL;
END
$$;

CREATE TRIGGER search_grams_on_product_delete AFTER DELETE ON products REFERENCING OLD TABLE AS deleted_products
    FOR EACH STATEMENT EXECUTE FUNCTION search_grams_forget_deleted_products();
