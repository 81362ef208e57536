-- Nothing to do on SQLite: PostgreSQL's 0043 moves a product's total stock by the SKU's own
-- change when only the stock changed, where it recomputed the product from every SKU. SQLite's
-- recompute (0033) runs in process and stays as it is.
SELECT 1;
