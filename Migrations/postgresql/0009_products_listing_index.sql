-- What a search needs to filter and rank its matches, in an index: reading status, sales or
-- price from the table itself means walking past each product's description, which for a
-- common two-character query (thousands of matches) was most of the work.
-- PostgreSQL translation of Migrations/sqlite/0009_products_listing_index.sql: same name, same
-- columns (PostgreSQL can answer from it with an index-only scan; it has no INDEXED BY, so the
-- planner, not the query text, chooses it).
CREATE INDEX products_listing ON products (id, status, sales, price_cents, category_id, created_at);
