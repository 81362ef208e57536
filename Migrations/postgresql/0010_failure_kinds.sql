-- Failed logins, registrations and password resets are counted apart, so a phone locked by
-- others' failed logins can still be reset by its owner, whose reset then lifts the lock.
-- PostgreSQL translation of Migrations/sqlite/0010_failure_kinds.sql.
ALTER TABLE login_failures ADD COLUMN kind TEXT NOT NULL DEFAULT 'login'
    CHECK (kind IN ('login', 'register', 'reset_password'));
DROP INDEX login_failures_by_phone;
DROP INDEX login_failures_by_ip;
CREATE INDEX login_failures_by_phone ON login_failures (phone, kind, failed_at);
CREATE INDEX login_failures_by_ip ON login_failures (client_ip, kind, failed_at);
