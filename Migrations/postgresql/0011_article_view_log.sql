-- Who viewed which article on which UTC day: a view counts once per article, viewer (user id,
-- else client IP) and day, so a loop of reads cannot rig the weekly top 10. The sweeper drops
-- days that can no longer be viewed again.
-- PostgreSQL translation of Migrations/sqlite/0011_article_view_log.sql (WITHOUT ROWID has no
-- counterpart: a heap table with its primary key). ArticleStore.countView inserts with "ignore"
-- (ON CONFLICT DO NOTHING on the primary key) and counts the view only when a row was added.
CREATE TABLE article_views (
    article_id BIGINT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    viewer TEXT NOT NULL,
    day BIGINT NOT NULL,
    PRIMARY KEY (article_id, viewer, day)
);
CREATE INDEX article_views_by_day ON article_views (day);
