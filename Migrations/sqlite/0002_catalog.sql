-- Catalogue: a category tree, products, their SKUs and images.
CREATE TABLE categories (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    parent_id INTEGER REFERENCES categories (id),
    -- the full path, "花束/玫瑰": what the import names a category by
    path TEXT NOT NULL UNIQUE,
    position INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX categories_by_parent ON categories (parent_id);

CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    category_id INTEGER NOT NULL REFERENCES categories (id),
    title TEXT NOT NULL,
    subtitle TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    cover_url TEXT NOT NULL DEFAULT '',
    attributes TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL CHECK (status IN ('on_sale', 'off_sale')),
    sales INTEGER NOT NULL DEFAULT 0 CHECK (sales >= 0),
    -- kept by the triggers below from the product's SKUs: the lowest price (and its
    -- original price) and the stock on hand, so lists sort and filter on an index
    price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
    original_price_cents INTEGER NOT NULL DEFAULT 0 CHECK (original_price_cents >= 0),
    total_stock INTEGER NOT NULL DEFAULT 0 CHECK (total_stock >= 0),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX products_by_category ON products (status, category_id, created_at);
CREATE INDEX products_by_newest ON products (status, created_at);
CREATE INDEX products_by_price ON products (status, price_cents);
CREATE INDEX products_by_sales ON products (status, sales);

CREATE TABLE product_images (
    product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    url TEXT NOT NULL,
    PRIMARY KEY (product_id, position)
);

CREATE TABLE skus (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES products (id),
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    original_price_cents INTEGER NOT NULL CHECK (original_price_cents >= 0),
    -- the last line of defence against overselling
    stock INTEGER NOT NULL CHECK (stock >= 0),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX skus_by_product ON skus (product_id);

CREATE TRIGGER skus_after_insert AFTER INSERT ON skus BEGIN
    UPDATE products SET
        price_cents = (SELECT price_cents FROM skus WHERE product_id = NEW.product_id ORDER BY price_cents, id LIMIT 1),
        original_price_cents = (SELECT original_price_cents FROM skus WHERE product_id = NEW.product_id ORDER BY price_cents, id LIMIT 1),
        total_stock = (SELECT SUM(stock) FROM skus WHERE product_id = NEW.product_id)
    WHERE id = NEW.product_id;
END;

CREATE TRIGGER skus_after_update AFTER UPDATE OF price_cents, original_price_cents, stock, product_id ON skus BEGIN
    UPDATE products SET
        price_cents = COALESCE((SELECT price_cents FROM skus WHERE product_id = products.id ORDER BY price_cents, id LIMIT 1), 0),
        original_price_cents = COALESCE((SELECT original_price_cents FROM skus WHERE product_id = products.id ORDER BY price_cents, id LIMIT 1), 0),
        total_stock = COALESCE((SELECT SUM(stock) FROM skus WHERE product_id = products.id), 0)
    WHERE id IN (NEW.product_id, OLD.product_id);
END;

CREATE TRIGGER skus_after_delete AFTER DELETE ON skus BEGIN
    UPDATE products SET
        price_cents = COALESCE((SELECT price_cents FROM skus WHERE product_id = OLD.product_id ORDER BY price_cents, id LIMIT 1), 0),
        original_price_cents = COALESCE((SELECT original_price_cents FROM skus WHERE product_id = OLD.product_id ORDER BY price_cents, id LIMIT 1), 0),
        total_stock = COALESCE((SELECT SUM(stock) FROM skus WHERE product_id = OLD.product_id), 0)
    WHERE id = OLD.product_id;
END;
