-- A SKU can be taken off sale on its own (the 99-rose size for the season, one colour that ran
-- out at the grower) while its product stays on sale with its other SKUs. Buyers see only the
-- SKUs on sale; a product's list price and stock (skus_after_* in 0002) now come from its SKUs
-- on sale: the cheapest on-sale SKU gives the price (any SKU when none is on sale, so the desk
-- still shows one), and only on-sale stock counts, so a product whose SKUs are all off sale
-- lists as sold out.
ALTER TABLE skus ADD COLUMN status TEXT NOT NULL DEFAULT 'on_sale' CHECK (status IN ('on_sale', 'off_sale'));

DROP TRIGGER skus_after_insert;
DROP TRIGGER skus_after_update;
DROP TRIGGER skus_after_delete;

CREATE TRIGGER skus_after_insert AFTER INSERT ON skus BEGIN
    UPDATE products SET
        price_cents = (SELECT price_cents FROM skus WHERE product_id = NEW.product_id
                       ORDER BY status <> 'on_sale', price_cents, id LIMIT 1),
        original_price_cents = (SELECT original_price_cents FROM skus WHERE product_id = NEW.product_id
                                ORDER BY status <> 'on_sale', price_cents, id LIMIT 1),
        total_stock = (SELECT COALESCE(SUM(CASE WHEN status = 'on_sale' THEN stock ELSE 0 END), 0) FROM skus
                       WHERE product_id = NEW.product_id)
    WHERE id = NEW.product_id;
END;

CREATE TRIGGER skus_after_update AFTER UPDATE OF price_cents, original_price_cents, stock, product_id, status ON skus BEGIN
    UPDATE products SET
        price_cents = COALESCE((SELECT price_cents FROM skus WHERE product_id = products.id
                                ORDER BY status <> 'on_sale', price_cents, id LIMIT 1), 0),
        original_price_cents = COALESCE((SELECT original_price_cents FROM skus WHERE product_id = products.id
                                         ORDER BY status <> 'on_sale', price_cents, id LIMIT 1), 0),
        total_stock = COALESCE((SELECT SUM(CASE WHEN status = 'on_sale' THEN stock ELSE 0 END) FROM skus
                                WHERE product_id = products.id), 0)
    WHERE id IN (NEW.product_id, OLD.product_id);
END;

CREATE TRIGGER skus_after_delete AFTER DELETE ON skus BEGIN
    UPDATE products SET
        price_cents = COALESCE((SELECT price_cents FROM skus WHERE product_id = OLD.product_id
                                ORDER BY status <> 'on_sale', price_cents, id LIMIT 1), 0),
        original_price_cents = COALESCE((SELECT original_price_cents FROM skus WHERE product_id = OLD.product_id
                                         ORDER BY status <> 'on_sale', price_cents, id LIMIT 1), 0),
        total_stock = COALESCE((SELECT SUM(CASE WHEN status = 'on_sale' THEN stock ELSE 0 END) FROM skus
                                WHERE product_id = OLD.product_id), 0)
    WHERE id = OLD.product_id;
END;
