-- Nothing to do on SQLite: PostgreSQL's 0049 moves a product's total stock by a sale's difference
-- instead of locking and summing its SKUs again. SQLite's triggers run in process (its 0043 and
-- 0044 are comments too) and stay as they are.
SELECT 1;
