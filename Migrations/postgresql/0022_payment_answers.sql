-- A payment start keeps the provider's answer (the pay parameters the client's SDK needs) and how
-- long it stays usable, so starting again for the same order, provider and channel returns it
-- without another provider call. `channel` is the way the buyer pays (`app` until web payment).
-- PostgreSQL translation of Migrations/sqlite/0022_payment_answers.sql.
ALTER TABLE payments ADD COLUMN channel TEXT NOT NULL DEFAULT 'app';
ALTER TABLE payments ADD COLUMN pay_params TEXT;
ALTER TABLE payments ADD COLUMN valid_until BIGINT;
