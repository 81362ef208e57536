#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for development and tests (Debian postgresql-15).
#   scripts/postgres.sh start           initdb under .build/postgres if needed, start it, print its URL
#   scripts/postgres.sh stop            stop it (the data stays until `make clean`)
#   scripts/postgres.sh url [DB]        print its URL (database shop_test, or DB)
#   scripts/postgres.sh createdb DB     create database DB on the running cluster unless it exists; print its URL
#   scripts/postgres.sh standby-start   a read-only streaming standby of it on port+1 (a fresh
#                                       pg_basebackup each start, under .build/postgres-standby); print its URL
#   scripts/postgres.sh standby-stop    stop the standby
#   scripts/postgres.sh primary-stop    stop only the primary (fast shutdown; the fault test's outage)
#   scripts/postgres.sh standby-url [DB]
# Idempotent: starting a running cluster only prints the URL. PGPORT overrides the port (54329),
# PGSTANDBY_PORT the standby's (PGPORT+1), PG_CLUSTER_DIR the folder that holds the clusters' files
# (a script that wants a PostgreSQL of its own, like the fault test, sets all three).
# The server runs as the `postgres` user (it refuses root, and CI is root); it listens on
# 127.0.0.1 and on a Unix socket in .build/postgres-socket, with trust authentication: a
# cluster for tests on one machine, never for data anyone keeps. pg_stat_statements is preloaded
# (CREATE EXTENSION pg_stat_statements in a database to read it): the bench counts statements per request.
# As root, when the postgres user cannot reach .build (a clone under /root, mode 700), the
# cluster lives in /var/tmp/floral-postgres-<hash of the clone's path> instead.
set -euo pipefail

cd "$(dirname "$0")/.."
root="$(pwd)"
port="${PGPORT:-54329}"
database="shop_test"
bin="$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || true)"

# Where the cluster's files go: PG_CLUSTER_DIR, else .build, unless we are root and the postgres
# user cannot get there.
base="${PG_CLUSTER_DIR:-$root/.build}"
if [ -n "${PG_CLUSTER_DIR:-}" ]; then
    mkdir -p "$base"
    chmod 755 "$base"
elif [ "$(id -u)" -eq 0 ] && id postgres >/dev/null 2>&1; then
    mkdir -p "$base"
    chmod o+x "$base"
    if ! (cd / && runuser -u postgres -- test -x "$base"); then
        base="/var/tmp/floral-postgres-$(printf '%s' "$root" | md5sum | cut -c1-12)"
        mkdir -p "$base"
        chmod 755 "$base"
    fi
fi
# Another port is another cluster, with files of its own.
suffix=""
[ "$port" = 54329 ] || suffix="-$port"
data="$base/postgres$suffix"
socket="$base/postgres-socket$suffix"
log="$base/postgres$suffix.log"
standby_port="${PGSTANDBY_PORT:-$((port + 1))}"
standby_data="$base/postgres$suffix-standby"
standby_log="$base/postgres$suffix-standby.log"

url() { echo "postgresql://postgres@127.0.0.1:$port/${1:-$database}"; }
standby_url() { echo "postgresql://postgres@127.0.0.1:$standby_port/${1:-$database}"; }

# Runs a command as the postgres user when we are root, as ourselves otherwise
# (from /, which that user can always enter; every path here is absolute).
as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd / && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

running() { [ -n "$bin" ] && [ -f "$data/PG_VERSION" ] && as_postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; }

# Creates database $1 unless it exists (the cluster must be running).
create_database() {
    if ! as_postgres "$bin/psql" -h "$socket" -p "$port" -U postgres -d postgres -tAc \
            "SELECT 1 FROM pg_database WHERE datname = '$1'" | grep -q 1; then
        as_postgres "$bin/createdb" -h "$socket" -p "$port" -U postgres "$1"
    fi
}

start() {
    if [ -z "$bin" ]; then
        echo "postgres.sh: PostgreSQL 15 is not installed (Debian package postgresql-15)" >&2
        exit 1
    fi
    if running; then url; return; fi
    mkdir -p "$base" "$socket"
    if [ "$(id -u)" -eq 0 ]; then
        # .build belongs to root: the server user must be able to reach and own its folders.
        mkdir -p "$data"
        chown postgres "$data" "$socket"
        touch "$log" && chown postgres "$log"
    fi
    chmod 700 "$socket"
    if [ ! -f "$data/PG_VERSION" ]; then
        as_postgres "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    fi
    if ! as_postgres "$bin/pg_ctl" -D "$data" -l "$log" -w -t 30 \
            -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$socket -c shared_preload_libraries=pg_stat_statements" start >/dev/null; then
        echo "postgres.sh: the cluster in $data did not start (is port $port taken? PGPORT chooses another); see $log:" >&2
        tail -n 5 "$log" >&2 || true
        exit 1
    fi
    create_database "$database"
    url
}

stop() {
    if running; then
        as_postgres "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    fi
}

standby_running() { [ -f "$standby_data/PG_VERSION" ] && as_postgres "$bin/pg_ctl" -D "$standby_data" status >/dev/null 2>&1; }

# A hot standby fed by streaming replication from the primary (PostgreSQL's own: pg_basebackup
# copies the cluster and writes standby.signal + primary_conninfo; the primary's defaults,
# wal_level=replica and max_wal_senders=10, and initdb's trust lines for replication suffice).
standby_start() {
    running || { echo "postgres.sh: the primary is not running (make postgres)" >&2; exit 1; }
    if standby_running; then standby_url; return; fi
    # Always a fresh copy: a standby stopped for a while needs WAL the primary has since recycled
    # (no replication slot holds it, so a forgotten standby never fills the primary's disk), and
    # such a standby would wait for it forever.
    rm -rf "$standby_data"
    if [ "$(id -u)" -eq 0 ]; then mkdir -p "$standby_data" && chown postgres "$standby_data"; fi
    as_postgres "$bin/pg_basebackup" -h "$socket" -p "$port" -U postgres -D "$standby_data" -R -X stream \
        --checkpoint=fast >/dev/null
    chmod 700 "$standby_data"
    if [ "$(id -u)" -eq 0 ]; then touch "$standby_log" && chown postgres "$standby_log"; fi
    if ! as_postgres "$bin/pg_ctl" -D "$standby_data" -l "$standby_log" -w -t 30 \
            -o "-p $standby_port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$socket -c hot_standby=on" \
            start >/dev/null; then
        echo "postgres.sh: the standby in $standby_data did not start (is port $standby_port taken?); see $standby_log:" >&2
        tail -n 5 "$standby_log" >&2 || true
        exit 1
    fi
    standby_url
}

standby_stop() {
    if standby_running; then
        as_postgres "$bin/pg_ctl" -D "$standby_data" -m fast -w stop >/dev/null
    fi
}

case "${1:-}" in
    start) start ;;
    stop) standby_stop; stop ;;
    primary-stop) stop ;;
    standby-start) standby_start ;;
    standby-stop) standby_stop ;;
    standby-url) standby_url "${2:-}" ;;
    url) url "${2:-}" ;;
    createdb)
        [ -n "${2:-}" ] || { echo "usage: $0 createdb NAME" >&2; exit 2; }
        running || { echo "postgres.sh: the cluster is not running (make postgres)" >&2; exit 1; }
        create_database "$2"
        url "$2" ;;
    *) echo "usage: $0 start|stop|primary-stop|url [DB]|createdb DB|standby-start|standby-stop|standby-url [DB]" >&2; exit 2 ;;
esac
