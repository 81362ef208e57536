-- Hot keywords rank by distinct searchers (user id, else client IP) and count only searches
-- that found something. Searches logged before this know neither, so they count as not found.
ALTER TABLE search_queries ADD COLUMN searcher TEXT NOT NULL DEFAULT '';
ALTER TABLE search_queries ADD COLUMN found INTEGER NOT NULL DEFAULT 0;

-- The hot query reads the last 7 days from the index alone; the purge uses its first column.
DROP INDEX search_queries_by_time;
CREATE INDEX search_queries_by_time_found ON search_queries (searched_at, found, keyword, searcher);
