#!/usr/bin/env python3
"""The stall test by hand (`make stall-demo`): a shop whose WeChat Pay gateway accepts connections
and never answers, many buyers starting a WeChat payment at once, and one shopper reading a
product page meanwhile. Prints the shopper's latencies every half second and every payment's
answer, so you can see that the silent provider costs the buyers who wait on it (504 after
payments.provider_timeout_seconds, or 503 at once) and nobody else.

    python3 scripts/stall_demo.py [--payments 64] [--provider-timeout 3] [--rounds 1]

A temp shop (.build/debug/shop on a fresh SQLite file, or PostgreSQL with SHOP_LAB_POSTGRES_URL
set, as in the reliability suite) on a free port; everything on 127.0.0.1; nothing is left behind.
Exits non-zero when the shopper was harmed (p99 over 20 ms, a read failed, or one read over 1 s)."""
import argparse
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shoplab import (Shop, Shopper, SilentGateway, engine, error_code, latency_summary, percentile,  # noqa: E402
                     request, small_catalog, wechat_env)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--payments", type=int, default=64, help="payment starts fired at once (64)")
    parser.add_argument("--provider-timeout", type=int, default=3,
                        help="payments.provider_timeout_seconds (3 here; the shop's default is 10)")
    parser.add_argument("--rounds", type=int, default=1, help="bursts, one after another (1)")
    args = parser.parse_args()

    silent = SilentGateway()
    print(f"silent WeChat Pay gateway on {silent.url} (accepts, never answers)")
    env = {"SHOP_PAYMENTS_PROVIDER_TIMEOUT_SECONDS": str(args.provider_timeout),
           # this demo measures the bulkhead, not the breaker (which would refuse at once after 5 timeouts)
           "SHOP_PAYMENTS_BREAKER_FAILURES": "1000",
           "SHOP_ORDERS_MAX_UNPAID_PER_USER": "100000", "SHOP_SERVER_MAX_CONNECTIONS_PER_IP": "100000"}
    env.update(wechat_env(silent.url))
    shop = Shop(env)
    shopper = None
    try:
        shop.cli("migrate")
        catalog = os.path.join(shop.dir, "catalog.csv")
        small_catalog(catalog, skus=2, stock=1_000_000)
        shop.cli("import", "catalog", catalog)
        sku, product = shop.query("SELECT id, product_id FROM skus WHERE code = 'REL-0'")[0]
        shop.start()
        print(f"shop serve on 127.0.0.1:{shop.port} ({engine()}), provider timeout {args.provider_timeout} s, "
              f"payments.max_concurrent_calls 32 (the default)")
        token = shop.register("13700009000")
        status, body, _ = shop.request("POST", "/api/v1/addresses", {
            "recipient": "测试", "phone": "13800138000", "province": "上海市", "city": "上海市",
            "district": "徐汇区", "detail": "漕溪北路 88 号"}, token=token)
        address = body["id"]
        orders = []
        for n in range(args.payments * args.rounds):
            status, body, _ = shop.request("POST", "/api/v1/orders", {"address_id": address, "items": [{"sku_id": sku, "quantity": 1}]},
                                           token=token, headers={"Idempotency-Key": f"demo-{n}"})
            assert status == 201, (status, body)
            orders.append(body["id"])
        print(f"{len(orders)} unpaid orders placed; the shopper reads GET /api/v1/products/{product} every 5 ms "
              "from 127.0.0.2, in a process of its own\n")

        shopper = Shopper(shop.port, f"/api/v1/products/{product}")
        shopper.wait_for(5)
        answers = []
        lock = threading.Lock()

        def pay(order):
            sent = time.monotonic()
            try:
                status, body, headers = request(shop.port, "POST", f"/api/v1/orders/{order}/payments",
                                                {"provider": "wechatpay"}, token=token, timeout=120)
                answer = (status, error_code(body), headers.get("Retry-After"))
            except OSError as error:
                answer = (None, repr(error), None)
            with lock:
                answers.append((answer, time.monotonic() - sent))

        began = time.monotonic()
        fired = []      # (when, threads)
        windows = []

        def report(since, until):
            samples = shopper.between(since, until)
            failed = sum(1 for s in samples if s[2] != 200)
            with lock:
                done = len(answers)
                kinds = {}
                for (status, code, _), _ in answers:
                    key = f"{status} {code or ''}".strip()
                    kinds[key] = kinds.get(key, 0) + 1
            started = sum(len(threads) for _, threads in fired)
            print(f"t={until - began:5.1f} s  shopper {latency_summary(samples) if samples else 'no reads'}"
                  f"{f', {failed} FAILED' if failed else ''}  |  payments answered {done}/{started}"
                  + (f" {dict(sorted(kinds.items()))}" if kinds else ""), flush=True)
            windows.append(samples)

        print("t=  0.0 s  the shopper reads alone for 2 s")
        while time.monotonic() < began + 2.0:
            time.sleep(0.5)
            report(time.monotonic() - 0.5, time.monotonic())
        for round_number in range(args.rounds):
            batch = orders[round_number * args.payments:(round_number + 1) * args.payments]
            print(f"t={time.monotonic() - began:5.1f} s  {len(batch)} WeChat Pay starts fired at once", flush=True)
            threads = [threading.Thread(target=pay, args=(o,)) for o in batch]
            for t in threads:
                t.start()
            fired.append((time.monotonic(), threads))
            while any(t.is_alive() for t in threads):
                time.sleep(0.5)
                report(time.monotonic() - 0.5, time.monotonic())
        load_from = fired[0][0]
        load_to = time.monotonic()
        time.sleep(0.5)
        report(time.monotonic() - 0.5, time.monotonic())

        before = shopper.between(began, load_from)
        during = shopper.between(load_from, load_to)
        seconds = [s[1] for s in during]
        failed = [s for s in shopper.between(began) if s[2] != 200]
        print("\nshopper alone:            " + latency_summary(before))
        print("shopper while they wait:  " + latency_summary(during) + (f", {len(failed)} failed" if failed else ", none failed"))
        kinds = {}
        for (status, code, retry_after), took in answers:
            key = f"{status} {code or ''}".strip()
            low, high, count, retry = kinds.get(key, (took, took, 0, retry_after))
            kinds[key] = (min(low, took), max(high, took), count + 1, retry)
        print(f"payments ({len(answers)}):")
        for key, (low, high, count, retry) in sorted(kinds.items()):
            print(f"  {count:4d} × {key:28s} after {low:6.2f} .. {high:6.2f} s" + (f"  Retry-After {retry}" if retry else ""))
        print(f"the silent gateway took {silent.accepted} connections")
        p99 = percentile(seconds, 99) * 1000
        slowest = max(seconds, default=0) * 1000
        harmed = not during or failed or p99 >= 20 or slowest >= 1000
        if harmed:
            print(f"\nSHOPPER HARMED: p99 {p99:.1f} ms, slowest {slowest:.1f} ms, {len(failed)} failed reads")
        else:
            print(f"\nshopper unharmed: p99 {p99:.1f} ms (< 20 ms), slowest {slowest:.1f} ms, no read failed; "
                  f"payments answered within {max(t for _, t in answers):.2f} s "
                  f"(provider timeout {args.provider_timeout} s)")
        return 1 if harmed else 0
    finally:
        if shopper:
            shopper.stop()
        shop.close()
        silent.close()


if __name__ == "__main__":
    sys.exit(main())
