-- Nothing to change on SQLite: the PostgreSQL migration of this number makes catalog_version
-- move once per transaction, because there every update of the row in one transaction leaves a
-- version behind that later updates walk past. SQLite updates the row in place, so its triggers
-- (0008) stay as they are. This file keeps the two engines' migration numbers in step.
SELECT 1;
