"""Places "buy now" orders at a steady rate while another load runs (a busy flower shop's evening:
~20 orders a second beside the browsing), on one keep-alive connection, for a bounded time.

    python3 bench/orders_beside.py PORT SECONDS [RATE]     (TOKEN, SKU, ADDRESS from the environment,
                                                          as bench/order_place.lua takes them)

Prints how many orders were placed (201) and how many answers were something else. Loopback only."""
import http.client
import json
import os
import sys
import time


def main():
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
    token, sku, address = os.environ["TOKEN"], int(os.environ["SKU"]), int(os.environ["ADDRESS"])
    body = json.dumps({"address_id": address, "items": [{"sku_id": sku, "quantity": 1}]})
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    placed = refused = 0
    start = time.monotonic()
    n = 0
    while True:
        due = start + n / rate
        now = time.monotonic()
        if due - start >= seconds:
            break
        if due > now:
            time.sleep(due - now)
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}",
                   "Idempotency-Key": f"beside-{os.getpid()}-{n}"}
        connection.request("POST", "/api/v1/orders", body, headers)
        response = connection.getresponse()
        response.read()
        if response.status == 201:
            placed += 1
        else:
            refused += 1
        n += 1
    elapsed = time.monotonic() - start
    print(f"{placed} orders placed in {elapsed:.1f} s ({placed / elapsed:.1f}/s), {refused} other answers")


if __name__ == "__main__":
    main()
