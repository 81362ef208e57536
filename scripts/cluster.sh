#!/usr/bin/env bash
# Several stateless `shop serve` nodes behind HAProxy, over one PostgreSQL database (make cluster).
#   scripts/cluster.sh start    PostgreSQL (scripts/postgres.sh), database shop_cluster (created once,
#                               migrated, demo seed if empty), nodes on 8081-8083, HAProxy on 8080
#   scripts/cluster.sh stop     stop exactly the processes `start` recorded in .build/cluster/*.pid
#                               (PostgreSQL keeps running: make postgres-stop)
#   scripts/cluster.sh status   which of them run
# Idempotent: `start` starts only what is not running. Logs, pid files, haproxy.cfg and the
# verification codes (file sender, codes.jsonl) live in .build/cluster/.
# A streaming standby (scripts/postgres.sh standby-start, port PGPORT+1) takes the nodes'
# catalogue and signed-out social reads (database.read_url); CLUSTER_STANDBY=0 leaves it out.
# CLUSTER_PORT (8080), CLUSTER_NODES (3; node i on CLUSTER_PORT+i), CLUSTER_METRICS_PORT (9464; node
# i's /metrics on it+i), CLUSTER_DATABASE (shop_cluster), CLUSTER_DIR (.build/cluster) and PGPORT
# (scripts/postgres.sh) override the defaults, so a test can run a cluster beside yours;
# CLUSTER_SHOP runs another binary (bench/cluster.sh: the release build).
set -euo pipefail

cd "$(dirname "$0")/.."
root="$(pwd)"
dir="${CLUSTER_DIR:-$root/.build/cluster}"
shop="${CLUSTER_SHOP:-$root/.build/debug/shop}"
port="${CLUSTER_PORT:-8080}"
nodes="${CLUSTER_NODES:-3}"
database="${CLUSTER_DATABASE:-shop_cluster}"
metrics_port="${CLUSTER_METRICS_PORT:-9464}"

# The pid recorded in $1.pid, if that process still runs and is the program named $2.
live_pid() {
    local file="$dir/$1.pid" pid
    [ -f "$file" ] || return 1
    pid="$(cat "$file")"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
    # A recycled pid belongs to someone else: check the executable.
    [ "$(basename "$(readlink "/proc/$pid/exe" 2>/dev/null)")" = "$2" ] || return 1
    echo "$pid"
}

# Waits until $1 answers GET $2 with 200, for up to $3 seconds.
wait_for() {
    local deadline=$((SECONDS + $3))
    until curl -fsS -o /dev/null "http://127.0.0.1:$1$2" 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.2
    done
}

start() {
    [ -x "$shop" ] || { echo "cluster.sh: $shop is missing (make build)" >&2; exit 1; }
    command -v haproxy >/dev/null || { echo "cluster.sh: haproxy is not installed (Debian package haproxy)" >&2; exit 1; }
    mkdir -p "$dir"
    scripts/postgres.sh start >/dev/null
    local url
    url="$(scripts/postgres.sh createdb "$database")"
    export SHOP_DATABASE_URL="$url"
    # Once, before any node: nodes starting side by side must not race to migrate or seed.
    "$shop" migrate >>"$dir/setup.log" 2>&1 || { echo "cluster.sh: shop migrate failed; see $dir/setup.log" >&2; exit 1; }
    "$shop" seed demo --if-empty >>"$dir/setup.log" 2>&1 || { echo "cluster.sh: shop seed failed; see $dir/setup.log" >&2; exit 1; }
    if [ "${CLUSTER_STANDBY:-1}" != 0 ]; then
        scripts/postgres.sh standby-start >/dev/null
        local read_url deadline=$((SECONDS + 30))
        read_url="$(scripts/postgres.sh standby-url "$database")"
        # The standby replays the primary's WAL: wait until it has the database and its schema.
        until [ "$(psql "$read_url" -qAtc "SELECT count(*) FROM schema_migrations" 2>/dev/null)" = \
                "$(psql "$url" -qAtc "SELECT count(*) FROM schema_migrations")" ]; do
            [ $SECONDS -lt $deadline ] || { echo "cluster.sh: the standby did not catch up; see its log beside the cluster (.build/postgres*-standby.log)" >&2; exit 1; }
            sleep 0.2
        done
        export SHOP_DATABASE_READ_URL="$read_url"
        echo "standby: $read_url (catalogue and public reads)"
    else
        unset SHOP_DATABASE_READ_URL
    fi

    local servers="" backups="" i node_port pid
    for i in $(seq 1 "$nodes"); do
        node_port=$((port + i))
        servers+="    server node$i 127.0.0.1:$node_port check"$'\n'
        backups+="    server last$i 127.0.0.1:$node_port backup"$'\n'
        if pid="$(live_pid "node$i" shop)"; then
            echo "node$i: already running (pid $pid, :$node_port)"
            continue
        fi
        SHOP_SERVER_PORT="$node_port" \
        SHOP_SERVER_METRICS_PORT=$((metrics_port + i)) \
        SHOP_SERVER_TRUSTED_PROXIES=127.0.0.1 \
        SHOP_VERIFICATION_SENDER=file \
        SHOP_VERIFICATION_FILE_PATH="$dir/codes.jsonl" \
            setsid "$shop" serve >>"$dir/node$i.log" 2>&1 </dev/null &
        echo $! >"$dir/node$i.pid"
        echo "node$i: started (pid $!, :$node_port, metrics :$((metrics_port + i)), log $dir/node$i.log)"
    done
    for i in $(seq 1 "$nodes"); do
        wait_for $((port + i)) /readyz 60 || { echo "cluster.sh: node$i is not ready; see $dir/node$i.log" >&2; exit 1; }
    done

    local template="$root/scripts/haproxy.cfg.in" config="$dir/haproxy.cfg"
    awk -v port="$port" -v servers="${servers%$'\n'}" -v backups="${backups%$'\n'}" '
        /^@SERVERS@$/ { print servers; print backups; next }
        { gsub(/@PORT@/, port); print }' "$template" >"$config.new"
    haproxy -c -q -f "$config.new" || { echo "cluster.sh: $config.new is not a valid HAProxy config" >&2; exit 1; }
    if pid="$(live_pid haproxy haproxy)" && cmp -s "$config.new" "$config"; then
        # Same config (a node restarted in a rolling restart): no reload, whose hand-over of the
        # listening socket can reset a connection arriving at that instant.
        rm -f "$config.new"
        echo "haproxy: running, config unchanged (pid $pid, :$port)"
    elif pid="$(live_pid haproxy haproxy)"; then
        mv "$config.new" "$config"
        # Running already: reload it gracefully on the (possibly changed) config.
        haproxy -D -f "$config" -p "$dir/haproxy.pid" -sf "$pid" >>"$dir/haproxy.log" 2>&1
        echo "haproxy: reloaded (:$port)"
    else
        mv "$config.new" "$config"
        haproxy -D -f "$config" -p "$dir/haproxy.pid" >>"$dir/haproxy.log" 2>&1
        echo "haproxy: started (pid $(cat "$dir/haproxy.pid"), :$port, config $config)"
    fi
    wait_for "$port" /readyz 10 || { echo "cluster.sh: HAProxy on :$port does not answer; see $dir/haproxy.log" >&2; exit 1; }
    echo "cluster: http://127.0.0.1:$port/ -> $nodes nodes -> $url"
}

# Sends SIGTERM to the process in $1.pid (if it is $2), waits up to $3 s, then SIGKILL.
stop_one() {
    local pid
    if pid="$(live_pid "$1" "$2")"; then
        kill -TERM "$pid" 2>/dev/null || true
        local deadline=$((SECONDS + $3))
        while kill -0 "$pid" 2>/dev/null; do
            if [ $SECONDS -ge $deadline ]; then kill -KILL "$pid" 2>/dev/null || true; break; fi
            sleep 0.1
        done
        echo "$1: stopped (pid $pid)"
    fi
    rm -f "$dir/$1.pid"
}

stop() {
    [ -d "$dir" ] || return 0
    # The balancer first, so no request goes to a node that is going away.
    stop_one haproxy haproxy 5
    local file
    for file in "$dir"/node*.pid; do
        [ -e "$file" ] || continue
        stop_one "$(basename "$file" .pid)" shop 30
    done
}

status() {
    local file name pid program code=0
    for file in "$dir"/haproxy.pid "$dir"/node*.pid; do
        [ -e "$file" ] || continue
        name="$(basename "$file" .pid)"
        program=shop; [ "$name" = haproxy ] && program=haproxy
        if pid="$(live_pid "$name" "$program")"; then echo "$name: running (pid $pid)"; else echo "$name: not running"; code=3; fi
    done
    [ -e "$dir/haproxy.pid" ] || { echo "cluster: not started"; code=3; }
    return $code
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
