-- Hot keywords rank by distinct searchers (user id, else client IP) and count only searches
-- that found something. Searches logged before this know neither, so they count as not found.
-- PostgreSQL translation of Migrations/sqlite/0012_search_searchers.sql. found is a Bool on the
-- Swift side (SearchStore.LoggedSearch), so it is a 0/1 SMALLINT like every other flag; the
-- CHECK is new here (SQLite has none), and every row SQLite can hold passes it.
ALTER TABLE search_queries ADD COLUMN searcher TEXT NOT NULL DEFAULT '';
ALTER TABLE search_queries ADD COLUMN found SMALLINT NOT NULL DEFAULT 0 CHECK (found IN (0, 1));

-- The hot query reads the last 7 days from the index alone; the purge uses its first column.
DROP INDEX search_queries_by_time;
CREATE INDEX search_queries_by_time_found ON search_queries (searched_at, found, keyword, searcher);
