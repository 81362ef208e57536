-- Product search: FTS5 with the trigram tokenizer (CJK substrings, case-insensitive Latin),
-- a gram table for queries of one or two characters, and the log behind hot keywords.
CREATE VIRTUAL TABLE products_fts USING fts5 (
    title, subtitle, description,
    content = 'products', content_rowid = 'id',
    tokenize = 'trigram'
);

CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_fts (rowid, title, subtitle, description)
    VALUES (NEW.id, NEW.title, NEW.subtitle, NEW.description);
END;

CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
    INSERT INTO products_fts (products_fts, rowid, title, subtitle, description)
    VALUES ('delete', OLD.id, OLD.title, OLD.subtitle, OLD.description);
END;

CREATE TRIGGER products_fts_update AFTER UPDATE OF title, subtitle, description ON products BEGIN
    INSERT INTO products_fts (products_fts, rowid, title, subtitle, description)
    VALUES ('delete', OLD.id, OLD.title, OLD.subtitle, OLD.description);
    INSERT INTO products_fts (rowid, title, subtitle, description)
    VALUES (NEW.id, NEW.title, NEW.subtitle, NEW.description);
END;

-- Every one- and two-character substring of a product's title (field 0) and subtitle (field 1),
-- lowercased: trigrams cannot answer queries shorter than three characters.
CREATE TABLE product_grams (
    gram TEXT NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    field INTEGER NOT NULL,
    PRIMARY KEY (gram, product_id, field)
) WITHOUT ROWID;
CREATE INDEX product_grams_by_product ON product_grams (product_id);

CREATE TABLE search_queries (
    id INTEGER PRIMARY KEY,
    keyword TEXT NOT NULL,
    searched_at INTEGER NOT NULL
);
CREATE INDEX search_queries_by_time ON search_queries (searched_at, keyword);
