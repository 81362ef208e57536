-- Flower delivery: the day (in app.timezone, YYYY-MM-DD), slot and greeting card of each order,
-- and whether a product can go out the day it is ordered. Orders placed before this migration
-- have no delivery day (NULL).
ALTER TABLE orders ADD COLUMN delivery_date TEXT;
ALTER TABLE orders ADD COLUMN delivery_slot TEXT CHECK (delivery_slot IN ('morning', 'afternoon', 'evening'));
ALTER TABLE orders ADD COLUMN card_message TEXT;
ALTER TABLE orders ADD COLUMN card_signature TEXT;
-- the florist's worklist: one day's orders
CREATE INDEX orders_by_delivery_date ON orders (delivery_date, status);

ALTER TABLE products ADD COLUMN delivery TEXT NOT NULL DEFAULT 'same_day' CHECK (delivery IN ('same_day', 'next_day'));
