-- Nothing to do on SQLite: PostgreSQL's 0046 makes a cart add one statement (cart_add), where it
-- was five statements in two round trips. SQLite's add runs in process and stays as it is.
SELECT 1;
