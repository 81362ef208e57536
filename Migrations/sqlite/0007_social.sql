-- Social: column authors, articles, follows, likes, comments and daily view counts.
ALTER TABLE users ADD COLUMN author_since INTEGER;

CREATE TABLE article_categories (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);

CREATE TABLE articles (
    id INTEGER PRIMARY KEY,
    author_id INTEGER NOT NULL REFERENCES users (id),
    category_id INTEGER REFERENCES article_categories (id),
    title TEXT NOT NULL,
    summary TEXT NOT NULL DEFAULT '',
    cover_url TEXT NOT NULL DEFAULT '',
    -- HTML or Markdown exactly as the author gave it; clients render it, the server never runs it
    content TEXT NOT NULL,
    views INTEGER NOT NULL DEFAULT 0 CHECK (views >= 0),
    likes_count INTEGER NOT NULL DEFAULT 0 CHECK (likes_count >= 0),
    comments_count INTEGER NOT NULL DEFAULT 0 CHECK (comments_count >= 0),
    published_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (author_id, title)
);
CREATE INDEX articles_by_author ON articles (author_id, published_at, id);
CREATE INDEX articles_by_category ON articles (category_id, published_at, id);
CREATE INDEX articles_by_published ON articles (published_at, id);

CREATE TABLE follows (
    follower_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    author_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (follower_id, author_id),
    CHECK (follower_id <> author_id)
);
CREATE INDEX follows_by_author ON follows (author_id, created_at);

CREATE TABLE article_likes (
    article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (article_id, user_id)
);
CREATE INDEX article_likes_by_time ON article_likes (created_at);

CREATE TABLE comments (
    id INTEGER PRIMARY KEY,
    article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    reply_to INTEGER REFERENCES comments (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX comments_by_article ON comments (article_id, created_at, id);
CREATE INDEX comments_by_time ON comments (created_at);

-- views per article per UTC day, for the weekly top 10
CREATE TABLE article_view_days (
    article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    day INTEGER NOT NULL,
    views INTEGER NOT NULL,
    PRIMARY KEY (article_id, day)
);
