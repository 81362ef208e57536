#!/usr/bin/env bash
# Scaling through HAProxy: the release `shop` as 1, 2 and 3 nodes behind HAProxy (scripts/cluster.sh,
# with the streaming standby), on one PostgreSQL, measured with wrk against the bare libmicrohttpd
# hello-world of the same run. Beside req/s and latency it samples the CPU time every process
# group used during each run (/proc/<pid>/stat), so the rows show what one request costs in the
# nodes, in PostgreSQL (primary + standby) and in HAProxy — on a 2-core machine they all share the
# same cores, which is what limits the scaling here. It also counts the statements PostgreSQL ran
# (pg_stat_statements on the primary and on the standby, the cluster preloads it) per request: the
# figure that says whether adding nodes adds load on the one database, which this small machine can
# measure even where its two cores cannot show the scaling. Writes bench/out/cluster.md and prints it.
#
#   bench/cluster.sh                     # 20,000 SKUs, 10 s per row
#   DURATION=5 SKUS=5000 bench/cluster.sh
#   BUILD=0 bench/cluster.sh             # the release binary as it is, no rebuild
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
DURATION=${DURATION:-10}
SKUS=${SKUS:-20000}
NODES=${NODES:-1 2 3}
out=bench/out
mkdir -p "$out"
work=$(mktemp -d)
export CLUSTER_DIR="$work/cluster" CLUSTER_PORT=18280 CLUSTER_METRICS_PORT=18290 CLUSTER_DATABASE="bench_cluster_$$"
export CLUSTER_SHOP="$root/.build/release/shop"
HELLO_PORT=18279
pids=()
cleanup() {
  scripts/cluster.sh stop >/dev/null 2>&1 || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  psql "$(scripts/postgres.sh url)" -qAtc "DROP DATABASE IF EXISTS $CLUSTER_DATABASE WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

for tool in wrk curl psql haproxy; do
  command -v "$tool" >/dev/null || { echo "bench/cluster.sh: $tool is missing (make bench-cluster installs it)" >&2; exit 1; }
done

if [ "${BUILD:-1}" != 0 ]; then  # BUILD=0: measure the release binary already built
  echo "== building (release)"
  swift build -c release --product shop >/dev/null
fi
cc -O2 -o "$out/hello" bench/hello.c $(pkg-config --cflags --libs libmicrohttpd)

export SHOP_VERIFICATION_SENDER=file SHOP_APP_LOG_LEVEL=warning
export SHOP_SERVER_MAX_CONNECTIONS_PER_IP=4096 SHOP_SERVER_MAX_CONNECTIONS=4096
# Every load comes from one address: lift the per-address search limit (120 a minute).
export SHOP_SEARCH_MAX_PER_MINUTE_PER_IP=1000000000
export SHOP_ORDERS_MAX_UNPAID_PER_USER=100000
export SHOP_CATALOG_IMPORT_MAX_BYTES=$((500 * 1024 * 1024))
unset SHOP_DATABASE_PATH SHOP_DATABASE_READ_URL

scripts/postgres.sh start >/dev/null
export SHOP_DATABASE_URL=$(scripts/postgres.sh createdb "$CLUSTER_DATABASE")
python3 bench/gen_catalog.py "$work/big.csv" "$SKUS"
echo "== import of $SKUS SKUs into $CLUSTER_DATABASE"
"$CLUSTER_SHOP" migrate >/dev/null
"$CLUSTER_SHOP" import catalog "$work/big.csv" >/dev/null
"$CLUSTER_SHOP" seed demo >/dev/null
sku=$(psql "$SHOP_DATABASE_URL" -qAtc "select id from skus where code='BENCH-ORDERS-0'")
product=$(psql "$SHOP_DATABASE_URL" -qAtc "select product_id from skus where code='BENCH-ORDERS-0'")
psql "$SHOP_DATABASE_URL" -qAtc "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null

# CPU ticks (user + system) used so far by this run's processes named $1: the nodes and HAProxy
# whose pid files scripts/cluster.sh wrote, and PostgreSQL's postmasters of
# scripts/postgres.sh (primary, standby) with their children. On a machine shared with other
# benchmarks and clusters, their `shop` and `postgres` processes are left out.
pg_data=$(PGPORT=${PGPORT:-54329}; base=${PG_CLUSTER_DIR:-$root/.build}; [ "$PGPORT" = 54329 ] && echo "$base/postgres" || echo "$base/postgres-$PGPORT")
if [ "$(id -u)" -eq 0 ] && [ -z "${PG_CLUSTER_DIR:-}" ] && [ ! -d "$pg_data" ]; then
  pg_data="/var/tmp/floral-postgres-$(printf '%s' "$root" | md5sum | cut -c1-12)/$(basename "$pg_data")"
fi
run_pids() { # name
  local pid file
  case $1 in
    shop) cat "$CLUSTER_DIR"/node*.pid 2>/dev/null || true ;;
    haproxy) cat "$CLUSTER_DIR/haproxy.pid" 2>/dev/null || true ;;
    postgres)
      for file in "$pg_data/postmaster.pid" "$pg_data-standby/postmaster.pid"; do
        [ -f "$file" ] || continue
        pid=$(head -1 "$file")
        echo "$pid"
        ps -o pid= --ppid "$pid" 2>/dev/null || true
      done ;;
  esac
}
cpu_of() {
  local name=$1 ticks=0 pid
  for pid in $(run_pids "$name"); do
    [ -r "/proc/$pid/stat" ] || continue
    ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$ticks"
}

# Statements run in the bench database on the primary and on the standby since the last reset
# (the counting itself left out).
servers() { echo "$SHOP_DATABASE_URL"; scripts/postgres.sh standby-url "$CLUSTER_DATABASE" 2>/dev/null || true; }
reset_statements() {
  local url
  for url in $(servers); do psql "$url" -qAtc "SELECT pg_stat_statements_reset()" >/dev/null 2>&1 || true; done
}
statements() {
  local url total=0 n
  for url in $(servers); do
    n=$(psql "$url" -qAtc "SELECT COALESCE(SUM(s.calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = current_database() AND s.query NOT LIKE '%pg_stat_statements%'" 2>/dev/null || echo 0)
    total=$((total + n))
  done
  echo "$total"
}

measure() { # name url [lua]
  local name=$1 url=$2 script=${3:-}
  local args=(-t2 -c32 -d"${DURATION}s" --latency)
  [ -n "$script" ] && args+=(-s "$script")
  local before_shop before_pg before_ha after_shop after_pg after_ha result
  reset_statements
  before_shop=$(cpu_of shop); before_pg=$(cpu_of postgres); before_ha=$(cpu_of haproxy)
  result=$(wrk "${args[@]}" "$url")
  after_shop=$(cpu_of shop); after_pg=$(cpu_of postgres); after_ha=$(cpu_of haproxy)
  local ran
  ran=$(statements)
  local rps p50 p99 requests errors
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$result")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$result")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$result")
  requests=$(awk '/requests in/ {print $1}' <<<"$result")
  errors=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$result" | tr '\n' ' ')
  printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$name" "$rps" "$p50" "$p99" "$requests" \
    $((after_shop - before_shop)) $((after_pg - before_pg)) $((after_ha - before_ha)) "${errors:-none}" "$ran"
}

"$out/hello" $HELLO_PORT 4 & pids+=($!)
sleep 0.3
echo "== hello-world"
hello=$(measure "hello-world (libmicrohttpd, C), direct" "http://127.0.0.1:$HELLO_PORT/healthz")
rows=("$hello")

for n in $NODES; do
  scripts/cluster.sh stop >/dev/null 2>&1 || true
  CLUSTER_NODES=$n scripts/cluster.sh start >/dev/null
  api="http://127.0.0.1:$CLUSTER_PORT/api/v1" json='Content-Type: application/json'
  phone="1391234$(printf '%04d' "$n")"
  curl -sf -XPOST "$api/auth/verification-codes" -H "$json" -d "{\"phone\":\"$phone\",\"purpose\":\"register\"}" >/dev/null
  code=$(grep "$phone" "$CLUSTER_DIR/codes.jsonl" | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
  export TOKEN=$(curl -sf -XPOST "$api/auth/register" -H "$json" \
    -d "{\"phone\":\"$phone\",\"code\":\"$code\",\"password\":\"bench-password\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  export ADDRESS=$(curl -sf -XPOST "$api/addresses" -H "$json" -H "Authorization: Bearer $TOKEN" \
    -d '{"recipient":"压测","phone":"13912345678","province":"上海市","city":"上海市","district":"徐汇区","detail":"漕溪北路 1 号"}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  export SKU=$sku
  echo "== $n node(s) behind HAProxy"
  rows+=("$(measure "GET /products/{id}, $n node(s)" "$api/products/$product")")
  rows+=("$(measure "GET /products?per_page=20, $n node(s)" "$api/products?per_page=20")")
  rows+=("$(measure "POST /orders (buy now), $n node(s)" "$api/orders" bench/order_place.lua)")
done

ceiling=$(cut -d'|' -f2 <<<"$hello")
hz=$(getconf CLK_TCK)
{
  echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores; wrk -t2 -c32, ${DURATION}s per row; $SKUS SKUs; release build; PostgreSQL primary + streaming standby; nodes with server.threads = 2 × cores and database.pool_size 10."
  echo
  echo "| row | req/s | p50 | p99 | vs hello-world | database statements per request | CPU ms per request: nodes | PostgreSQL | HAProxy | PostgreSQL share | errors |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for row in "${rows[@]}"; do
    IFS='|' read -r name rps p50 p99 requests shop pg ha errors ran <<<"$row"
    python3 - "$name" "$rps" "$p50" "$p99" "$requests" "$shop" "$pg" "$ha" "$errors" "$ceiling" "$hz" "$ran" <<'PY'
import sys
name, rps, p50, p99, requests, shop, pg, ha, errors, ceiling, hz, ran = sys.argv[1:]
requests = max(int(requests), 1)
ms = lambda ticks: int(ticks) / int(hz) * 1000 / requests
total = ms(shop) + ms(pg) + ms(ha)
share = f"{ms(pg) / total:.0%}" if total and "hello-world" not in name else "-"
statements = "-" if "hello-world" in name else f"{int(ran or 0) / requests:.3f}"
print(f"| {name} | {float(rps):,.0f} | {p50} | {p99} | {float(rps) / float(ceiling):.2f} | {statements} | {ms(shop):.3f} | {ms(pg):.3f} | {ms(ha):.3f} | {share} | {errors} |")
PY
  done
} | tee "$out/cluster.md"
