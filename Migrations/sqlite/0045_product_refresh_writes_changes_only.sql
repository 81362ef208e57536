-- Nothing to do on SQLite: PostgreSQL's 0045 lets products_refresh_from_skus skip a product whose
-- list price, original price and total stock stay as they are. SQLite's recompute (0033) runs in
-- process and stays as it is.
SELECT 1;
