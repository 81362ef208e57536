-- Nothing to do on SQLite: PostgreSQL's 0043 sums a product's total stock again without its
-- prices when only a SKU's stock changed, where it refreshed the whole product from every SKU.
-- SQLite's recompute (0033) runs in process and stays as it is.
SELECT 1;
