#!/usr/bin/env python3
"""Cold search, one query at a time: asks a running shop each query of a file once (over one
keep-alive connection) and prints the latency distribution, the status counts and the slowest
queries. What the first shopper to type each query waits, measured per query, so a busy machine
shows up as a spread rather than as a lower req/s (quote the load average beside it).

Usage: cold_search.py BASE_URL QUERIES [--limit N] [--slowest K] [--per-page N] [--json OUT]
  BASE_URL  e.g. http://127.0.0.1:8080 (the API is BASE_URL/api/v1)
  QUERIES   lines of bench/gen_cold_queries.py or bench/gen_queries.py: weight, url-encoded query, query
Exits 1 when any answer is a 5xx or the connection fails (a query must never break the server).
The server must not limit searches per address (SHOP_SEARCH_MAX_PER_MINUTE_PER_IP=1000000)."""
import argparse
import http.client
import json
import os
import sys
import time
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("base")
parser.add_argument("queries")
parser.add_argument("--limit", type=int, default=0, help="ask only the first N queries")
parser.add_argument("--slowest", type=int, default=10)
parser.add_argument("--per-page", type=int, default=20)
parser.add_argument("--json", help="write every query's latency and status here")
args = parser.parse_args()

url = urllib.parse.urlsplit(args.base)
conn = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=60)
lines = [line.rstrip("\n").split("\t") for line in open(args.queries, encoding="utf-8")]
if args.limit:
    lines = lines[:args.limit]

results = []  # (ms, status, query, total)
failures = 0
for fields in lines:
    encoded, query = fields[1], fields[2] if len(fields) > 2 else urllib.parse.unquote(fields[1])
    path = f"/api/v1/products?q={encoded}&per_page={args.per_page}"
    start = time.perf_counter()
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        status = response.status
    except (OSError, http.client.HTTPException) as error:
        print(f"cold_search.py: {query!r}: {error}", file=sys.stderr)
        conn.close()
        conn = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=60)
        status, body = 0, b""
        failures += 1
        if failures == 5:
            sys.exit("cold_search.py: 5 connection failures in a row: is the shop serving at " + args.base + "?")
    else:
        failures = 0
    ms = (time.perf_counter() - start) * 1000
    total = None
    if status == 200:
        total = json.loads(body).get("total")
    results.append((ms, status, query, total))

times = sorted(r[0] for r in results)
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
statuses = {}
for _, status, _, _ in results:
    statuses[status] = statuses.get(status, 0) + 1
load = os.getloadavg()
print(f"{len(times)} queries once each, sequential: p50 {pick(0.5):.2f} ms, p90 {pick(0.9):.2f} ms, "
      f"p99 {pick(0.99):.2f} ms, p99.9 {pick(0.999):.2f} ms, max {times[-1]:.2f} ms; "
      f"over 10 ms: {sum(t > 10 for t in times)}, over 20 ms: {sum(t > 20 for t in times)}, "
      f"over 100 ms: {sum(t > 100 for t in times)}; "
      f"statuses {', '.join(f'{s}: {n}' for s, n in sorted(statuses.items()))}; "
      f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
print(f"{args.slowest} slowest:")
for ms, status, query, total in sorted(results, reverse=True)[:args.slowest]:
    print(f"  {ms:8.2f} ms  {status}  total={total}  {query}")
if args.json:
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump([{"ms": round(ms, 3), "status": s, "q": q, "total": t} for ms, s, q, t in results], f, ensure_ascii=False)
sys.exit(1 if any(s == 0 or s >= 500 for s in statuses) else 0)
