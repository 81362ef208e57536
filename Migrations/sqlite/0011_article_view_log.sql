-- Who viewed which article on which UTC day: a view counts once per article, viewer (user id,
-- else client IP) and day, so a loop of reads cannot rig the weekly top 10. The sweeper drops
-- days that can no longer be viewed again.
CREATE TABLE article_views (
    article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    viewer TEXT NOT NULL,
    day INTEGER NOT NULL,
    PRIMARY KEY (article_id, viewer, day)
) WITHOUT ROWID;
CREATE INDEX article_views_by_day ON article_views (day);
