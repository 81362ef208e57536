-- Nothing to do on SQLite: PostgreSQL's 0048 gives its cart functions one answer type (cart_answer)
-- and one refusal (cart_refusal). SQLite's cart changes run in process and stay as they are.
SELECT 1;
