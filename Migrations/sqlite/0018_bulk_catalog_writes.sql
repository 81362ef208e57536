-- Nothing to change on SQLite. The PostgreSQL migration of this number makes catalog_version
-- move once per transaction and refreshes the products of inserted SKUs once per INSERT
-- statement, because there every update of a row in one transaction leaves a version behind and
-- every trigger call is a PL/pgSQL call; SQLite updates rows in place and its triggers (0002,
-- 0008) are cheap. This file keeps the two engines' migration numbers in step.
SELECT 1;
