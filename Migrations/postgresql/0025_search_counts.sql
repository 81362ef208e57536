-- The search log was one row per search (search_queries), written for every first page of a
-- search, signed in or not: one connection wrote ~2,300 rows/s. Searches are now counted per
-- keyword and UTC day (day = unix time / 86 400), each node adding its tally about once a second
-- (many nodes add to the same rows), so a keyword costs one row a day however often it is searched.
-- PostgreSQL translation of Migrations/sqlite/0025_search_counts.sql.
CREATE TABLE search_counts (
    day BIGINT NOT NULL,
    keyword TEXT NOT NULL,
    searches BIGINT NOT NULL CHECK (searches >= 1),
    found BIGINT NOT NULL CHECK (found >= 0 AND found <= searches),
    PRIMARY KEY (day, keyword)
);
INSERT INTO search_counts (day, keyword, searches, found)
SELECT searched_at / 86400, keyword, COUNT(*), SUM(found) FROM search_queries GROUP BY searched_at / 86400, keyword;
DROP TABLE search_queries;

-- Hot keywords rank by distinct people whose search found something in the last 7 days: per
-- keyword, UTC day and searcher, the last such time (search_keyword_searchers kept one row per
-- keyword and searcher for 30 days, and any number of searchers per keyword). SearchStore.add keeps
-- at most 1,000 searchers per keyword and day.
CREATE TABLE search_searchers (
    keyword TEXT NOT NULL,
    day BIGINT NOT NULL,
    searcher TEXT NOT NULL,
    last_found_at BIGINT NOT NULL,
    PRIMARY KEY (keyword, day, searcher)
);
CREATE INDEX search_searchers_by_time ON search_searchers (last_found_at, keyword, searcher);
INSERT INTO search_searchers (keyword, day, searcher, last_found_at)
SELECT keyword, last_found_at / 86400, searcher, last_found_at FROM search_keyword_searchers;
DROP TABLE search_keyword_searchers;
