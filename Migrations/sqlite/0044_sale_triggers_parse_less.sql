-- Nothing to do on SQLite: PostgreSQL's 0044 gives the triggers a sale's stock UPDATE meets
-- column lists and shorter conditions, because PostgreSQL parses each trigger's condition again
-- in every statement. SQLite's triggers run in process and stay as they are.
SELECT 1;
