#!/usr/bin/env bash
# Benchmarks on loopback: a release build of `shop` against a bare libmicrohttpd hello-world
# (the ceiling of this stack), measured in the same run. Bounded: each wrk run lasts DURATION
# seconds (default 10). Writes bench/out/latest.md and prints it.
#
# Each engine in ENGINES (default sqlite,postgresql) gets a fresh database, the same import of
# SKUS generated SKUs + the demo seed, its own `shop serve`, and the same endpoints; rows are
# labelled "(SQLite)" / "(PostgreSQL)". Every row is measured ROUNDS times (default 2), and each
# round's rows are compared with that round's hello-world. The search mix (bench/search_mix.lua)
# draws from 200+ queries of 1-6 characters made from the catalogue's words (bench/gen_queries.py)
# with Zipf weights.
# PostgreSQL: the cluster of scripts/postgres.sh (PGPORT, default 54329) is reused when it
# answers, started otherwise; the run creates a database bench_<pid> in it and drops it on exit.
#
#   bench/run.sh                 # everything
#   DURATION=5 SKUS=20000 bench/run.sh
#   ENGINES=postgresql bench/run.sh
#   SHOP_BINARY=/path/to/other/shop bench/run.sh   # an A/B: measure another build (no build here)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
SKUS=${SKUS:-100000}
ENGINES=${ENGINES:-sqlite,postgresql}
ROUNDS=${ROUNDS:-2}
# Ports the kernel hands out free now (BENCH_PORT / HELLO_PORT pin them), so two benches on one
# machine (helpers side by side) never answer each other's wrk; the metrics listener is off.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
HELLO_PORT=${HELLO_PORT:-$(free_port)}
export SHOP_SERVER_METRICS_PORT=0
THREADS=$((2 * $(nproc)))
out=bench/out
mkdir -p "$out"
work=$(mktemp -d)
pids=()
pg_admin="" pg_database=""
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ -n "$pg_database" ]; then
    psql "$pg_admin" -qAtc "DROP DATABASE IF EXISTS $pg_database WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

for engine in ${ENGINES//,/ }; do
  case "$engine" in sqlite|postgresql) ;; *) echo "ENGINES: unknown engine '$engine' (sqlite, postgresql)" >&2; exit 2 ;; esac
done

for tool in wrk curl psql; do
  [ "$tool" = psql ] && [[ ",$ENGINES," != *,postgresql,* ]] && continue
  command -v "$tool" >/dev/null || { echo "bench/run.sh: $tool is missing (make bench installs it)" >&2; exit 1; }
done

if [ -n "${SHOP_BINARY:-}" ]; then
  SHOP=$SHOP_BINARY
else
  echo "== building (release)"
  swift build -c release --product shop >/dev/null
  SHOP=.build/release/shop
fi
cc -O2 -o "$out/hello" bench/hello.c $(pkg-config --cflags --libs libmicrohttpd)

export SHOP_VERIFICATION_SENDER=file
export SHOP_SERVER_MAX_CONNECTIONS_PER_IP=4096 SHOP_SERVER_MAX_CONNECTIONS=4096
# Every load comes from one address: lift the per-address search limit (120 a minute; a million
# a minute was reached by three search rows within one minute once kept searches got fast).
export SHOP_SEARCH_MAX_PER_MINUTE_PER_IP=1000000000
export SHOP_SERVER_THREADS=$THREADS SHOP_APP_LOG_LEVEL=warning
export SHOP_CATALOG_IMPORT_MAX_BYTES=$((500 * 1024 * 1024))
# POST /orders places one unpaid order per request for one buyer: lift the per-buyer cap (5); the
# many-buyers row registers 32 buyers from one address: lift the per-address code limit.
export SHOP_ORDERS_MAX_UNPAID_PER_USER=100000 SHOP_VERIFICATION_DAILY_LIMIT_PER_IP=1000
unset SHOP_DATABASE_URL SHOP_DATABASE_PATH

python3 bench/gen_catalog.py "$work/big.csv" "$SKUS"
export QUERIES="$work/queries.txt"
python3 bench/gen_queries.py "$work/big.csv" "$QUERIES"
# 40,000 distinct queries (fixed seed), each asked once by the cold-search row.
python3 bench/gen_cold_queries.py "$work/big.csv" "$work/cold.txt" >/dev/null

# Statements PostgreSQL ran in the bench database since the last reset (pg_stat_statements;
# the cluster preloads it), the counting itself left out; empty when STATEMENTS_URL is unset.
statements() {
  [ -n "${STATEMENTS_URL:-}" ] || return 0
  psql "$STATEMENTS_URL" -qAtc "SELECT COALESCE(SUM(s.calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = current_database() AND s.query NOT LIKE '%pg_stat_statements%'"
}
reset_statements() {
  [ -n "${STATEMENTS_URL:-}" ] || return 0
  psql "$STATEMENTS_URL" -qAtc "SELECT pg_stat_statements_reset()" >/dev/null
}

measure() { # name connections url [lua]
  local name=$1 conns=$2 url=$3 script=${4:-}
  local args=(-t2 -c"$conns" -d"${DURATION}s" --latency)
  [ -n "$script" ] && args+=(-s "$script")
  local result rps p50 p99 requests ran per="–"
  reset_statements
  result=$(wrk "${args[@]}" "$url")
  ran=$(statements)
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$result")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$result")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$result")
  requests=$(awk '/requests in/ {print $1}' <<<"$result")
  errors=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$result" | tr '\n' ' ')
  [ -n "$ran" ] && per=$(python3 -c "print(f'{$ran / max(1, $requests):.3f}')")
  printf '%s|%s|%s|%s|%s|%s|%s\n' "$name" "$conns" "$rps" "$p50" "$p99" "${errors:-none}" "$per"
}

rows=()
imports=()
colds=()
"$out/hello" $HELLO_PORT $THREADS & pids+=($!)
sleep 0.3
echo "== wrk, ${DURATION}s each: hello-world, $ROUNDS rounds"
declare -A ceiling
for round in $(seq "$ROUNDS"); do
  for conns in 32 256; do
    row=$(measure "hello-world (libmicrohttpd, C)" $conns "http://127.0.0.1:$HELLO_PORT/healthz")
    rows+=("$round|$row")
    ceiling[$round-$conns]=$(cut -d'|' -f3 <<<"$row")
  done
done

# One engine: fresh database, import + seed, serve on $port, register, measure, stop the server.
bench_engine() { # engine port
  local engine=$1 port=$2 label trgm
  export SHOP_SERVER_PORT=$port SHOP_VERIFICATION_FILE_PATH="$work/codes-$engine.jsonl"
  case "$engine" in
    sqlite)
      label="SQLite"; trgm="FTS5 trigram"
      export SHOP_DATABASE_PATH="$work/shop.sqlite"; unset SHOP_DATABASE_URL
      lookup() { python3 -c "import sqlite3; print(sqlite3.connect('$SHOP_DATABASE_PATH').execute(\"$1\").fetchone()[0])"; } ;;
    postgresql)
      label="PostgreSQL"; trgm="pg_trgm"
      pg_admin=$(scripts/postgres.sh url)
      if ! psql "$pg_admin" -qAtc "SELECT 1" >/dev/null 2>&1; then scripts/postgres.sh start >/dev/null; fi
      pg_database="bench_$$"
      psql "$pg_admin" -qAtc "CREATE DATABASE $pg_database" >/dev/null
      export SHOP_DATABASE_URL="${pg_admin%/*}/$pg_database"; unset SHOP_DATABASE_PATH
      lookup() { psql "$SHOP_DATABASE_URL" -qAtc "$1"; }
      psql "$SHOP_DATABASE_URL" -qAtc "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
      export STATEMENTS_URL=$SHOP_DATABASE_URL ;;
  esac

  echo "== $label: import of $SKUS generated SKUs"
  $SHOP migrate >/dev/null
  local report
  report=$(python3 - "$SHOP" "$work/big.csv" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run([sys.argv[1], "import", "catalog", sys.argv[2]], check=True, stdout=subprocess.DEVNULL)
seconds = time.monotonic() - start
peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{seconds:.1f} s, peak RSS {peak_mib:.0f} MiB")
PY
)
  echo "   $report"
  imports+=("$label: $report")
  $SHOP seed demo >/dev/null

  $SHOP serve 2>"$work/serve-$engine.log" & local server=$!; pids+=($server)
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done

  local api="http://127.0.0.1:$port/api/v1" json='Content-Type: application/json' code product
  curl -sf -XPOST "$api/auth/verification-codes" -H "$json" -d '{"phone":"13912345678","purpose":"register"}' >/dev/null
  code=$(tail -1 "$SHOP_VERIFICATION_FILE_PATH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
  export TOKEN=$(curl -sf -XPOST "$api/auth/register" -H "$json" \
    -d "{\"phone\":\"13912345678\",\"code\":\"$code\",\"password\":\"bench-password\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  export ADDRESS=$(curl -sf -XPOST "$api/addresses" -H "$json" -H "Authorization: Bearer $TOKEN" \
    -d '{"recipient":"压测","phone":"13912345678","province":"上海市","city":"上海市","district":"徐汇区","detail":"漕溪北路 1 号"}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  export SKU=$(lookup "select id from skus where code='BENCH-ORDERS-0'")
  # 32 more buyers, each with an address and a deep-stock SKU of its own (BENCH-BUYERS-n): a shop's
  # checkouts come from many buyers, while one buyer's are queued on that buyer (its unpaid-order
  # cap and coupon uses are counted in its checkout's transaction).
  local buyer buyers=() phone buyer_token buyer_address
  while IFS=, read -r phone buyer_token buyer_address; do
    buyer=$(lookup "select id from skus where code='BENCH-BUYERS-$((10#${phone: -2}))'" | tr -d ' ')
    buyers+=("$buyer_token,$buyer_address,$buyer")
  done < <(python3 - "$port" "$SHOP_VERIFICATION_FILE_PATH" <<'PY'
import http.client, json, sys
port, codes = int(sys.argv[1]), sys.argv[2]
def call(method, path, body, token=None):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Content-Type": "application/json"}
    if token: headers["Authorization"] = f"Bearer {token}"
    conn.request(method, f"/api/v1{path}", json.dumps(body), headers)
    response = conn.getresponse()
    answer = json.loads(response.read() or b"{}")
    if response.status >= 300: raise SystemExit(f"{method} {path}: {response.status} {answer}")
    return answer
for n in range(1, 33):
    phone = f"139000000{n:02d}"
    call("POST", "/auth/verification-codes", {"phone": phone, "purpose": "register"})
    code = json.loads(open(codes, encoding="utf-8").read().splitlines()[-1])["code"]
    token = call("POST", "/auth/register", {"phone": phone, "code": code, "password": "bench-password"})["token"]
    address = call("POST", "/addresses", {"recipient": "压测", "phone": phone, "province": "上海市", "city": "上海市",
                                          "district": "徐汇区", "detail": f"漕溪北路 {n} 号"}, token)["id"]
    print(f"{phone},{token},{address}")
PY
)
  export BUYERS=$(IFS=';'; echo "${buyers[*]}")
  product=$(lookup "select product_id from skus where code='BENCH-ORDERS-0'")

  local category
  category=$(lookup "select category_id from products group by category_id order by count(*) desc limit 1")
  # Each query of the mix once, one at a time, before anything kept it: what the first shopper
  # to type a query waits (the wrk rows below are mostly answered from the node's memory).
  local cold
  cold=$(python3 - "$port" "$QUERIES" <<'PY'
import http.client, sys, time
port, path = int(sys.argv[1]), sys.argv[2]
conn = http.client.HTTPConnection("127.0.0.1", port)
times = []
for line in open(path, encoding="utf-8"):
    encoded = line.split("\t")[1]
    start = time.perf_counter()
    conn.request("GET", f"/api/v1/products?q={encoded}&per_page=20")
    conn.getresponse().read()
    times.append((time.perf_counter() - start) * 1000)
times.sort()
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
print(f"{len(times)} queries once each, sequential: p50 {pick(0.5):.1f} ms, p90 {pick(0.9):.1f} ms, p99 {pick(0.99):.1f} ms, max {times[-1]:.1f} ms")
PY
)
  echo "   cold searches: $cold"
  colds+=("$label: $cold")
  echo "== $label: wrk, ${DURATION}s each, $ROUNDS rounds"
  local round
  for round in $(seq "$ROUNDS"); do
    if [ "$engine" = sqlite ]; then  # no database behind it: one engine is enough
      rows+=("$round|$(measure "GET /healthz" 32 "http://127.0.0.1:$port/healthz")")
      rows+=("$round|$(measure "GET /healthz" 256 "http://127.0.0.1:$port/healthz")")
    fi
    rows+=("$round|$(measure "GET /products/{id} ($label)" 32 "$api/products/$product")")
    rows+=("$round|$(measure "GET /products?per_page=20 ($label)" 32 "$api/products?per_page=20")")
    rows+=("$round|$(measure "GET /products?per_page=20&category_id (largest category) ($label)" 32 "$api/products?per_page=20&category_id=$category")")
    rows+=("$round|$(measure "GET /products?q= mix of $(wc -l <"$QUERIES") queries, Zipf ($label)" 32 "$api/products" bench/search_mix.lua)")
    # The same mix while orders land beside it (~20 a second): sales must not empty the kept pages.
    python3 bench/orders_beside.py "$port" "$DURATION" 20 >"$work/beside-$engine-$round.txt" & local beside=$!
    rows+=("$round|$(measure "GET /products?q= mix, ~20 orders/s beside it ($label)" 32 "$api/products" bench/search_mix.lua)")
    wait "$beside"
    echo "   beside the mix: $(cat "$work/beside-$engine-$round.txt")"
    rows+=("$round|$(measure "GET /products?q=玫瑰 ($label)" 32 "$api/products?q=%E7%8E%AB%E7%91%B0&per_page=20")")
    rows+=("$round|$(measure "GET /products?q=红玫瑰花束 ($label)" 32 "$api/products?q=%E7%BA%A2%E7%8E%AB%E7%91%B0%E8%8A%B1%E6%9D%9F&per_page=20")")
    rows+=("$round|$(BUYERS= measure "POST /cart/items + DELETE /cart ($label)" 32 "$api/cart/items" bench/cart_add.lua)")
    rows+=("$round|$(measure "POST /cart/items + DELETE /cart, 32 buyers with a SKU each ($label)" 32 "$api/cart/items" bench/cart_add.lua)")
    rows+=("$round|$(BUYERS= measure "POST /orders (buy now) ($label)" 32 "$api/orders" bench/order_place.lua)")
    rows+=("$round|$(measure "POST /orders (buy now), 32 buyers with a SKU each ($label)" 32 "$api/orders" bench/order_place.lua)")
  done

  # 40,000 distinct queries, each asked once (bench/cold_search.lua), 32 connections: what a
  # node answers before anything is kept. After the wrk rows, so that the mix rows measure a node
  # whose popular queries are kept (the 40,000 would push them out of its memory first). Its own
  # line gives the rate over the time the queries took; wrk's table gives the latencies.
  local coldrun
  coldrun=$(QUERIES="$work/cold.txt" THREADS=2 wrk -t2 -c32 -d"${COLD_SECONDS:-60}s" --latency -s bench/cold_search.lua "$api/products")
  cold=$(python3 - "$coldrun" <<'PY'
import re, sys
text = sys.argv[1]
line = next((l.strip() for l in text.splitlines() if l.strip().startswith("cold search:")), "cold search: (no summary)")
p50 = re.search(r"^\s*50%\s+(\S+)", text, re.M)
p99 = re.search(r"^\s*99%\s+(\S+)", text, re.M)
latency = re.search(r"^\s*Latency\s+\S+\s+\S+\s+(\S+)", text, re.M)
print(f"{line}; wrk -c32: p50 {p50.group(1) if p50 else '?'}, p99 {p99.group(1) if p99 else '?'}, max {latency.group(1) if latency else '?'}")
PY
)
  echo "   $cold"
  colds+=("$label, 40,000 distinct queries: $cold")
  kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
  unset STATEMENTS_URL
}

for engine in ${ENGINES//,/ }; do
  bench_engine "$engine" "${BENCH_PORT:-$(free_port)}"
done

{
  echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; server threads=$THREADS; wrk -t2, ${DURATION}s; engines $ENGINES; $ROUNDS rounds; binary $SHOP."
  echo
  for line in "${imports[@]}"; do echo "Import of $SKUS generated SKUs (\`shop import catalog\`, release), $line"; echo; done
  for line in "${colds[@]}"; do echo "Cold searches (each query's first answer on a fresh node), $line"; echo; done
  echo "(statements/request: PostgreSQL statements in the bench database per request, pg_stat_statements, each node's"
  echo "version readings included; – where no database server is asked)"
  echo
  echo "| endpoint | round | connections | req/s | p50 | p99 | vs hello-world | statements/request | errors |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for row in "${rows[@]}"; do
    IFS='|' read -r round name conns rps p50 p99 errors per <<<"$row"
    ratio=$(python3 -c "print(f'{float(\"$rps\") / float(\"${ceiling[$round-$conns]}\"):.2f}')")
    echo "| $name | $round | $conns | $rps | $p50 | $p99 | $ratio | $per | $errors |"
  done
} | tee "$out/latest.md"
