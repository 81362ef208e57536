-- Nothing to do on SQLite: PostgreSQL's 0047 makes every cart change one statement (cart_add with
-- its durability inside, cart_update, cart_remove, cart_clear). SQLite's cart changes run in
-- process and stay as they are.
SELECT 1;
