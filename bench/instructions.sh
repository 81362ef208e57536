#!/usr/bin/env bash
# Instructions per request of the hot endpoints, counted by valgrind's callgrind, for one or more
# builds of `shop`: a count that does not depend on what else the machine is doing, so two commits
# can be compared on a busy machine where wrk's req/s cannot (bench/run.sh is the speed itself).
#
# Each binary gets a fresh SQLite database with the demo shop, serves under callgrind, answers
# WARMUP requests of an endpoint (caches filled), then has its counters zeroed
# (callgrind_control -z), answers N more and dumps (callgrind_control -d): the dump's total / N
# is one request's cost, the server's side only (libmicrohttpd, our code, SQLite, libc).
#
#   bench/instructions.sh .build/release/shop /other/checkout/.build/release/shop
#   N=500 bench/instructions.sh .build/release/shop
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/instructions.sh SHOP_BINARY [SHOP_BINARY ...]" >&2; exit 2; }
N=${N:-1000}
WARMUP=${WARMUP:-200}
for tool in valgrind callgrind_control python3 curl; do
  command -v "$tool" >/dev/null || { echo "bench/instructions.sh: $tool is missing (apt-get install valgrind curl python3)" >&2; exit 1; }
done
work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# N requests over one keep-alive connection: METHOD PATH [BODY] with the bearer token in $TOKEN.
send() { # port count method path [body]
  python3 - "$@" <<'PY'
import http.client, os, sys
port, count, method, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
body = sys.argv[5].encode() if len(sys.argv) > 5 else None
headers = {"Authorization": "Bearer " + os.environ.get("TOKEN", ""), "Content-Type": "application/json"}
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
for i in range(count):
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    if response.status >= 300:
        sys.exit(f"{method} {path} answered {response.status}")
    if method == "POST" and path.endswith("/cart/items"):
        conn.request("DELETE", "/api/v1/cart", headers=headers)
        conn.getresponse().read()
PY
}

echo "| binary | endpoint | instructions per request |"
echo "|---|---|---|"
port=18290
for binary in "$@"; do
  # valgrind 3.19 cannot read the DWARF of Swift 6.3's builds ("possibly corrupted debuginfo"):
  # it counts a stripped copy, which runs the same instructions
  stripped="$work/shop-$port"
  strip -o "$stripped" "$binary"
  db="$work/shop-$port.sqlite"
  export SHOP_DATABASE_PATH=$db SHOP_SERVER_PORT=$port SHOP_SERVER_METRICS_PORT=0 SHOP_APP_LOG_LEVEL=warning
  export SHOP_VERIFICATION_SENDER=file SHOP_VERIFICATION_FILE_PATH="$work/codes-$port.jsonl" SHOP_SERVER_THREADS=2
  export SHOP_SEARCH_MAX_PER_MINUTE_PER_IP=1000000 SHOP_MEDIA_PATH="$work/media"
  # each build runs in its own checkout (…/.build/release/shop → …), with the Config/shop.json it knows
  home=$(cd "$(dirname "$binary")/../.." && pwd)
  (cd "$home" && "$binary" migrate >/dev/null && "$binary" seed demo >/dev/null)
  (cd "$home" && exec valgrind --tool=callgrind --callgrind-out-file="$work/cg-$port.%p" "$stripped" serve) 2>"$work/valgrind-$port.log" &
  server=$!
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.5; done
  curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { cat "$work/valgrind-$port.log" >&2; exit 1; }
  api=/api/v1 json='Content-Type: application/json'
  curl -sf -XPOST "http://127.0.0.1:$port$api/auth/verification-codes" -H "$json" -d '{"phone":"13912345678","purpose":"register"}' >/dev/null
  code=$(tail -1 "$SHOP_VERIFICATION_FILE_PATH" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
  export TOKEN=$(curl -sf -XPOST "http://127.0.0.1:$port$api/auth/register" -H "$json" \
    -d "{\"phone\":\"13912345678\",\"code\":\"$code\",\"password\":\"bench-password\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  for endpoint in "GET /healthz" "GET $api/products/1" "GET $api/products?per_page=20" \
                  "GET $api/products?q=%E7%8E%AB%E7%91%B0&per_page=20" "POST $api/cart/items {\"sku_id\":1,\"quantity\":1}"; do
    read -r method path body <<<"$endpoint"
    send "$port" "$WARMUP" "$method" "$path" ${body:+"$body"}
    callgrind_control -z "$server" >/dev/null 2>&1
    send "$port" "$N" "$method" "$path" ${body:+"$body"}
    callgrind_control -d "$server" >/dev/null 2>&1
    dump=$(ls -t "$work"/cg-$port.* | head -1)
    total=$(awk '/^(summary|totals):/ {print $2; exit}' "$dump")
    rm -f "$work"/cg-$port.*
    label="$method $path"; [ "$method" = POST ] && label="$label + DELETE /cart"
    echo "| $binary | $label | $((total / N)) |"
  done
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
  port=$((port + 1))
done
