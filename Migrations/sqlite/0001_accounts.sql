-- Accounts: users, bearer tokens (hashed), SMS verification codes (hashed), login failures.
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    phone TEXT NOT NULL UNIQUE,
    nickname TEXT NOT NULL,
    avatar_url TEXT NOT NULL DEFAULT '',
    signature TEXT NOT NULL DEFAULT '',
    gender TEXT NOT NULL DEFAULT 'unknown' CHECK (gender IN ('male', 'female', 'unknown')),
    is_author INTEGER NOT NULL DEFAULT 0 CHECK (is_author IN (0, 1)),
    -- argon2id(HMAC-SHA256(pepper, md5hex)) in the standard encoded form, which carries its parameters.
    password_hash TEXT NOT NULL,
    password_scheme TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE auth_tokens (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX auth_tokens_by_user ON auth_tokens (user_id);

CREATE TABLE verification_codes (
    id INTEGER PRIMARY KEY,
    phone TEXT NOT NULL,
    purpose TEXT NOT NULL CHECK (purpose IN ('register', 'reset_password')),
    code_hash TEXT NOT NULL,
    client_ip TEXT NOT NULL,
    sent_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    used_at INTEGER,
    superseded INTEGER NOT NULL DEFAULT 0 CHECK (superseded IN (0, 1)),
    delivered INTEGER NOT NULL CHECK (delivered IN (0, 1))
);
CREATE INDEX verification_codes_by_phone ON verification_codes (phone, purpose, sent_at);
CREATE INDEX verification_codes_by_ip ON verification_codes (client_ip, sent_at);

CREATE TABLE login_failures (
    id INTEGER PRIMARY KEY,
    phone TEXT NOT NULL,
    client_ip TEXT NOT NULL,
    failed_at INTEGER NOT NULL
);
CREATE INDEX login_failures_by_phone ON login_failures (phone, failed_at);
CREATE INDEX login_failures_by_ip ON login_failures (client_ip, failed_at);
