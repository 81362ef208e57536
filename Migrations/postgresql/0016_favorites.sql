-- Favourites (收藏): products and articles a user keeps, newest first. A product's count is kept
-- on its row (its page shows it), moved in the same transaction as the favourite.
CREATE TABLE product_favorites (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, product_id)
);
CREATE INDEX product_favorites_newest ON product_favorites (user_id, created_at DESC, product_id DESC);

CREATE TABLE article_favorites (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    article_id BIGINT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, article_id)
);
CREATE INDEX article_favorites_newest ON article_favorites (user_id, created_at DESC, article_id DESC);

ALTER TABLE products ADD COLUMN favorites_count BIGINT NOT NULL DEFAULT 0 CHECK (favorites_count >= 0);
