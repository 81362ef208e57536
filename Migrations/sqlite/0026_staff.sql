-- Staff: the people who run the shop through /admin and the `shop` command, apart from buyers.
-- Usernames are stored lower case; passwords as Argon2id (over an HMAC with the pepper); tokens
-- only as their SHA-256, like buyers' tokens. A disabled account's tokens stop working at once
-- (authentication joins `staff` and checks `disabled_at`).
CREATE TABLE staff (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'florist', 'service')),
    disabled_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE staff_tokens (
    token_hash TEXT PRIMARY KEY,
    staff_id INTEGER NOT NULL REFERENCES staff (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX staff_tokens_by_staff ON staff_tokens (staff_id);

-- Failed staff logins, per username and per client address (the buyers' table keys on phones).
CREATE TABLE staff_login_failures (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL,
    client_ip TEXT NOT NULL,
    failed_at INTEGER NOT NULL
);
CREATE INDEX staff_login_failures_by_username ON staff_login_failures (username, failed_at);
CREATE INDEX staff_login_failures_by_ip ON staff_login_failures (client_ip, failed_at);

-- Every staff write, in the transaction of the write itself: who (a staff member, or an operator
-- at the command line: staff_id NULL), what, on which target, the values before and after (JSON),
-- the request id and the time. Append-only: the triggers refuse any change or deletion.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    staff_id INTEGER REFERENCES staff (id),
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    before_json TEXT,
    after_json TEXT,
    request_id TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX audit_log_by_time ON audit_log (created_at, id);
CREATE INDEX audit_log_by_staff ON audit_log (staff_id, created_at);
CREATE INDEX audit_log_by_target ON audit_log (target, created_at);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
