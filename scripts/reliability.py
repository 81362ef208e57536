#!/usr/bin/env python3
"""The reliability suite (`make reliability`): crash safety, overload, and a soak.

(a) crash: concurrent checkouts and payment callbacks while the server is SIGKILLed at random
    moments, several times; then the database must be intact, no SKU oversold,
    stock + sold = initial, every acknowledged order and payment present, none applied twice.
(b) overload: far more connections than the limit, slowloris-style partial requests and
    oversized headers, from other loopback addresses; health checks keep answering in time,
    and the server recovers.
(c) soak: a minute of mixed traffic with the WAL size bounded and memory flat.

With SHOP_LAB_POSTGRES_URL set (make test-postgres) each shop runs on a fresh PostgreSQL database
(see shoplab.py): the same invariants are read over psql, and the SQLite-only checks
(PRAGMA integrity_check, the WAL's size) are left out.

Bounded in time (a few minutes in all); talks only to 127.0.0.0/8. Prints
`reliability: N passed, M failed` last and exits non-zero on any failure."""
import json
import os
import random
import socket
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shoplab import Shop, engine, mockpay_headers, small_catalog  # noqa: E402

SOAK_SECONDS = int(os.environ.get("SOAK_SECONDS", "60"))
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok)))
    print(f"  {'ok  ' if ok else 'FAIL'} {name}" + (f" — {detail}" if detail else ""), flush=True)


def crash_suite():
    print("(a) crash: checkouts and payments under SIGKILL", flush=True)
    shop = Shop()
    try:
        shop.cli("migrate")
        catalog = os.path.join(shop.dir, "catalog.csv")
        small_catalog(catalog, skus=6, stock=300)
        shop.cli("import", "catalog", catalog)
        initial = dict(shop.query("SELECT id, stock FROM skus"))
        shop.start()
        users = []
        for i in range(4):
            token = shop.register(f"1370000{1000 + i}")
            users.append((token, shop.add_address(token)))
        shop.stop()

        acknowledged_orders = {}   # number -> id
        acknowledged_events = set()
        lock = threading.Lock()
        rng = random.Random(7)
        for round_number in range(5):
            shop.start()
            stop = threading.Event()

            def buyer(token, address, seed):
                local = random.Random(seed)
                n = 0
                while not stop.is_set():
                    n += 1
                    sku = local.choice(list(initial))
                    try:
                        status, body, _ = shop.request("POST", "/api/v1/orders", {
                            "address_id": address, "items": [{"sku_id": sku, "quantity": local.randint(1, 2)}]},
                            token=token, headers={"Idempotency-Key": f"r{round_number}-{seed}-{n}"}, timeout=5)
                    except OSError:
                        return
                    if status == 201:
                        with lock:
                            acknowledged_orders[body["number"]] = body["id"]
                        if local.random() < 0.6:
                            event = {"event_id": f"evt-{body['number']}", "order_number": body["number"],
                                     "amount_cents": body["total_cents"], "currency": "CNY", "status": "succeeded",
                                     "occurred_at": "2026-11-30T08:00:00Z"}
                            raw = json.dumps(event).encode()
                            for _ in range(2):  # the provider retries: the second must change nothing
                                try:
                                    status, _, _ = shop.request("POST", "/api/v1/webhooks/payments/mockpay", raw,
                                                                headers=mockpay_headers(raw), timeout=5)
                                except OSError:
                                    return
                                if status == 200:
                                    with lock:
                                        acknowledged_events.add(event["event_id"])
                            if local.random() < 0.3:  # the buyer changes their mind: a paid order goes refunding
                                try:
                                    shop.request("POST", f"/api/v1/orders/{body['id']}/cancel", token=token, timeout=5)
                                except OSError:
                                    return

            threads = [threading.Thread(target=buyer, args=(token, address, round_number * 10 + i))
                       for i, (token, address) in enumerate(users)]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.4, 1.5))
            shop.kill()
            stop.set()
            for t in threads:
                t.join(timeout=10)
        if shop.engine == "sqlite":
            check("integrity_check is ok after 5 SIGKILLs", shop.query("PRAGMA integrity_check")[0][0] == "ok")
        stock = dict(shop.query("SELECT id, stock FROM skus"))
        # cancelled, refunding and refunded orders gave their stock back
        sold = dict(shop.query("""
            SELECT i.sku_id, SUM(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id
            WHERE o.status NOT IN ('cancelled', 'refunding', 'refunded') GROUP BY i.sku_id"""))
        check("no SKU oversold (stock never negative)", all(v >= 0 for v in stock.values()), str(stock))
        check("stock + sold = initial for every SKU",
              all(stock[s] + sold.get(s, 0) == initial[s] for s in initial), f"stock={stock} sold={sold}")
        numbers = {row[0] for row in shop.query("SELECT number FROM orders")}
        missing = [n for n in acknowledged_orders if n not in numbers]
        check(f"all {len(acknowledged_orders)} acknowledged orders exist", not missing and acknowledged_orders, str(missing[:5]))
        events = {row[0] for row in shop.query("SELECT event_id FROM payment_events WHERE provider = 'mockpay'")}
        lost = [e for e in acknowledged_events if e not in events]
        check(f"all {len(acknowledged_events)} acknowledged payment events exist", not lost, str(lost[:5]))
        twice = shop.query("""SELECT order_number FROM payment_events WHERE outcome = 'paid'
                              GROUP BY order_number HAVING COUNT(*) > 1""")
        check("no payment applied twice", not twice, str(twice[:5]))
        paid_orders = {row[0] for row in shop.query(
            "SELECT number FROM orders WHERE status IN ('paid', 'refunding', 'refunded')")}
        paid_events = {row[0] for row in shop.query("SELECT order_number FROM payment_events WHERE outcome = 'paid'")}
        check("every paid (or since refunding) order has exactly its paid event", paid_orders == paid_events)
        refunding = {row[0] for row in shop.query("SELECT id FROM orders WHERE status IN ('refunding', 'refunded')")}
        refunds = shop.query("SELECT order_id FROM refunds")
        check(f"each of the {len(refunding)} orders cancelled after payment has exactly one refund",
              sorted(r[0] for r in refunds) == sorted(refunding), f"{len(refunds)} refunds")
        unpaid_sales = shop.query("""
            SELECT p.id, p.sales, COALESCE((SELECT SUM(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id
                                            WHERE i.product_id = p.id AND o.status IN ('paid', 'shipped', 'completed')), 0)
            FROM products p""")
        check("sales count exactly the units of paid orders not refunded",
              all(row[1] == row[2] for row in unpaid_sales), str([r for r in unpaid_sales if r[1] != r[2]][:5]))
    finally:
        shop.close()


def overload_suite():
    print("(b) overload: connection flood, slowloris, oversized headers", flush=True)
    shop = Shop({"SHOP_SERVER_MAX_CONNECTIONS": "256", "SHOP_SERVER_MAX_CONNECTIONS_PER_IP": "32",
                 "SHOP_SERVER_IDLE_TIMEOUT_SECONDS": "5"})
    held = []
    try:
        shop.cli("migrate")
        shop.start()

        def health_ok(bound=2.0):
            start = time.time()
            try:
                status, _, _ = shop.request("GET", "/healthz", timeout=bound, source="127.0.0.1")
            except OSError:
                return False, bound
            return status == 200, time.time() - start

        # A flood of idle connections from one address: the per-IP limit caps them.
        for _ in range(300):
            s = socket.socket()
            s.settimeout(1)
            try:
                s.bind(("127.0.0.2", 0))
                s.connect(("127.0.0.1", shop.port))
                held.append(s)
            except OSError:
                s.close()
        ok, took = health_ok()
        check("health answers during a 300-connection flood", ok, f"{took:.2f}s")
        # Slowloris: partial requests trickling a header byte at a time from another address.
        slow = []
        for _ in range(40):
            s = socket.socket()
            s.settimeout(1)
            try:
                s.bind(("127.0.0.3", 0))
                s.connect(("127.0.0.1", shop.port))
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                slow.append(s)
            except OSError:
                s.close()
        worst = 0.0
        all_ok = True
        for _ in range(6):
            for s in slow:
                try:
                    s.sendall(b"X")
                except OSError:
                    pass
            ok, took = health_ok()
            all_ok = all_ok and ok
            worst = max(worst, took)
            time.sleep(0.5)
        check("health answers within 2 s while 40 slowloris clients trickle", all_ok, f"worst {worst:.2f}s")
        held.extend(slow)
        # Oversized headers: refused, connection closed, the server unharmed.
        s = socket.create_connection(("127.0.0.1", shop.port), timeout=5, source_address=("127.0.0.4", 0))
        try:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n")
            reply = s.recv(200)
        except OSError:
            reply = b""
        finally:
            s.close()
        check("a 200 KB header is refused (431/413 or closed), not served",
              not reply.startswith(b"HTTP/1.1 200"), reply[:40].decode(errors="replace"))
        ok, took = health_ok()
        check("health still answers after oversized headers", ok, f"{took:.2f}s")
        for s in held:
            s.close()
        held.clear()
        time.sleep(1)
        ok_from_flooder = False
        try:
            status, _, _ = shop.request("GET", "/healthz", timeout=2, source="127.0.0.2")
            ok_from_flooder = status == 200
        except OSError:
            pass
        check("the server recovers: the flooding address is served again", ok_from_flooder)
    finally:
        for s in held:
            s.close()
        shop.close()


def soak_suite():
    print(f"(c) soak: {SOAK_SECONDS} s of mixed traffic", flush=True)
    # All the traffic comes from one address: lift the per-address search limit to keep searching.
    shop = Shop({"SHOP_SEARCH_MAX_PER_MINUTE_PER_IP": "1000000"})
    try:
        shop.cli("migrate")
        catalog = os.path.join(shop.dir, "catalog.csv")
        small_catalog(catalog, skus=8, stock=1_000_000)
        shop.cli("import", "catalog", catalog)
        shop.cli("seed", "demo")
        shop.start()
        token = shop.register("13700002000")
        address = shop.add_address(token)
        skus = [row[0] for row in shop.query("SELECT id FROM skus WHERE code LIKE 'REL-%'")]
        products = [row[0] for row in shop.query("SELECT id FROM products WHERE status = 'on_sale' LIMIT 50")]
        stop = threading.Event()
        errors = []
        counts = {"requests": 0}
        lock = threading.Lock()

        def worker(seed):
            rng = random.Random(seed)
            n = 0
            while not stop.is_set():
                n += 1
                choice = rng.random()
                try:
                    if choice < 0.35:
                        status, _, _ = shop.request("GET", f"/api/v1/products/{rng.choice(products)}")
                    elif choice < 0.55:
                        q = urllib.parse.quote(rng.choice(["玫瑰", "百合花束", "多肉", "love", "礼盒"]))
                        status, _, _ = shop.request("GET", f"/api/v1/products?q={q}")
                    elif choice < 0.7:
                        status, _, _ = shop.request("POST", "/api/v1/cart/items",
                                                    {"sku_id": rng.choice(skus), "quantity": 1}, token=token)
                        if status == 422:
                            status, _, _ = shop.request("DELETE", "/api/v1/cart", token=token)
                    elif choice < 0.9:
                        status, body, _ = shop.request("POST", "/api/v1/orders", {
                            "address_id": address, "items": [{"sku_id": rng.choice(skus), "quantity": 1}]},
                            token=token, headers={"Idempotency-Key": f"soak-{seed}-{n}"})
                        if status == 201 and rng.random() < 0.5:
                            raw = json.dumps({"event_id": f"soak-{body['number']}", "order_number": body["number"],
                                              "amount_cents": body["total_cents"], "currency": "CNY",
                                              "status": "succeeded", "occurred_at": "2026-11-30T08:00:00Z"}).encode()
                            status, _, _ = shop.request("POST", "/api/v1/webhooks/payments/mockpay", raw,
                                                        headers=mockpay_headers(raw))
                    else:
                        status, _, _ = shop.request("GET", "/api/v1/articles/top")
                    if status >= 500:
                        errors.append(status)
                    with lock:
                        counts["requests"] += 1
                except OSError as error:
                    errors.append(str(error))

        def rss_kib():
            with open(f"/proc/{shop.process.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
            return 0

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        samples = []
        wal = shop.database + "-wal"
        wal_max = 0
        start = time.time()
        while time.time() - start < SOAK_SECONDS:
            time.sleep(2)
            samples.append(rss_kib())
            if os.path.exists(wal):
                wal_max = max(wal_max, os.path.getsize(wal))
        stop.set()
        for t in threads:
            t.join(timeout=10)
        warm = samples[len(samples) // 4] if samples else 0
        final = samples[-1] if samples else 0
        wal_note = f"; largest WAL {wal_max // 1024} KiB" if shop.engine == "sqlite" else ""
        print(f"     {counts['requests']} requests; RSS after warm-up {warm // 1024} MiB, at the end {final // 1024} MiB"
              + wal_note, flush=True)
        check("no 5xx or connection errors during the soak", not errors, str(errors[:5]))
        if shop.engine == "sqlite":
            check("WAL stays bounded (under 64 MiB)", wal_max < 64 * 1024 * 1024, f"{wal_max // 1024} KiB")
        check("memory is flat (RSS grows under 25% after warm-up)", final <= warm * 1.25 + 8 * 1024,
              f"{warm // 1024} -> {final // 1024} MiB")
        if shop.engine == "sqlite":
            check("integrity_check is ok after the soak", shop.query("PRAGMA integrity_check")[0][0] == "ok")
    finally:
        shop.close()


if __name__ == "__main__":
    started = time.time()
    print(f"reliability on {engine()}", flush=True)
    for suite in (crash_suite, overload_suite, soak_suite):
        try:
            suite()
        except Exception as error:  # a suite that cannot run is a failure, never a skip
            check(f"{suite.__name__} ran to the end", False, repr(error))
    passed = sum(1 for _, ok in results if ok)
    failed = len(results) - passed
    print(f"({time.time() - started:.0f} s)")
    print(f"reliability: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
