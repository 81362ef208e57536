#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for development and tests (Debian postgresql-15).
#   scripts/postgres.sh start   initdb under .build/postgres if needed, start it, print its URL
#   scripts/postgres.sh stop    stop it (the data stays until `make clean`)
#   scripts/postgres.sh url     print its URL
# Idempotent: starting a running cluster only prints the URL. PGPORT overrides the port (54329).
# The server runs as the `postgres` user (it refuses root, and CI is root); it listens on
# 127.0.0.1 and on a Unix socket in .build/postgres-socket, with trust authentication: a
# cluster for tests on one machine, never for data anyone keeps.
set -euo pipefail

cd "$(dirname "$0")/.."
root="$(pwd)"
port="${PGPORT:-54329}"
data="$root/.build/postgres"
socket="$root/.build/postgres-socket"
log="$root/.build/postgres.log"
database="shop_test"
bin="$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || true)"

url() { echo "postgresql://postgres@127.0.0.1:$port/$database"; }

# Runs a command as the postgres user when we are root, as ourselves otherwise.
as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

running() { [ -f "$data/PG_VERSION" ] && as_postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; }

start() {
    if [ -z "$bin" ]; then
        echo "postgres.sh: PostgreSQL 15 is not installed (Debian package postgresql-15)" >&2
        exit 1
    fi
    if running; then url; return; fi
    mkdir -p "$root/.build" "$socket"
    if [ "$(id -u)" -eq 0 ]; then
        # .build belongs to root: the server user must be able to reach and own its folders.
        chmod o+x "$root/.build"
        mkdir -p "$data"
        chown postgres "$data" "$socket"
        touch "$log" && chown postgres "$log"
    fi
    chmod 700 "$socket"
    if [ ! -f "$data/PG_VERSION" ]; then
        as_postgres "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    fi
    as_postgres "$bin/pg_ctl" -D "$data" -l "$log" -w -t 30 \
        -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$socket" start >/dev/null
    if ! as_postgres "$bin/psql" -h "$socket" -p "$port" -U postgres -d postgres -tAc \
            "SELECT 1 FROM pg_database WHERE datname = '$database'" | grep -q 1; then
        as_postgres "$bin/createdb" -h "$socket" -p "$port" -U postgres "$database"
    fi
    url
}

stop() {
    if running; then
        as_postgres "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    url) url ;;
    *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
