#!/usr/bin/env python3
"""Checks `GET /metrics` on a real `shop serve`: a fresh shop with the demo seed, a few requests
(a product by id, a 404, a sign-up, an order and its mockpay notification), then the exposition
on server.metrics_port parsed with prometheus_client's own parser (pinned in
scripts/requirements-contract.txt). Run it with the contract venv's python:
.venv-contract/bin/python scripts/metrics_check.py (make contract does)."""
import http.client
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shoplab import Shop, mockpay_headers  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402


def fetch_metrics(shop):
    conn = http.client.HTTPConnection("127.0.0.1", shop.metrics_port, timeout=10)
    try:
        conn.request("GET", "/metrics")
        response = conn.getresponse()
        body = response.read().decode()
        return response.status, response.getheader("Content-Type"), body
    finally:
        conn.close()


def samples(families, name):
    return [s for f in families.values() for s in f.samples if s.name == name]


shop = Shop()
try:
    print(f"metrics: shop serve on {shop.engine}", flush=True)
    shop.cli("migrate")
    shop.cli("seed", "demo")
    shop.start()
    # The API's own port does not serve metrics.
    status, _, _ = shop.request("GET", "/metrics")
    assert status == 404, status
    for product in (1, 2):
        status, body, _ = shop.request("GET", f"/api/v1/products/{product}")
        assert status == 200, (status, body)
    token = shop.register("13700004000")
    address = shop.add_address(token)
    status, order, _ = shop.request("POST", "/api/v1/orders", {"address_id": address, "items": [{"sku_id": 1, "quantity": 1}]},
                                    token=token, headers={"Idempotency-Key": "metrics-check-1"})
    assert status == 201, (status, order)
    event = json.dumps({"event_id": f"evt-{order['number']}", "order_number": order["number"],
                        "amount_cents": order["total_cents"], "currency": "CNY", "status": "succeeded",
                        "occurred_at": "2026-11-30T08:00:00Z"}).encode()
    status, body, _ = shop.request("POST", "/api/v1/webhooks/payments/mockpay", event, headers=mockpay_headers(event))
    assert status == 200, (status, body)

    status, content_type, text = fetch_metrics(shop)
    assert status == 200, status
    assert content_type.startswith("text/plain; version=0.0.4"), content_type
    families = {f.name: f for f in text_string_to_metric_families(text)}
    # prometheus_client drops the `_total` suffix from a counter family's name, not from its samples.
    for name, kind in [("shop_http_requests", "counter"), ("shop_http_request_duration_seconds", "histogram"),
                       ("shop_orders_placed", "counter"), ("shop_payments", "counter"),
                       ("shop_sweeper_runs", "counter"), ("shop_database_errors", "counter")]:
        assert name in families, (name, sorted(families))
        assert families[name].type == kind, (name, families[name].type)

    requests = samples(families, "shop_http_requests_total")
    by_route = {(s.labels["route"], s.labels["method"], s.labels["status"]): s.value for s in requests}
    assert by_route.get(("/api/v1/products/:id", "GET", "200")) == 2, by_route
    assert ("unmatched", "GET", "404") in by_route, by_route
    assert not any(route.startswith("/api/v1/products/") and ":id" not in route for route, _, _ in by_route), by_route
    buckets = [s for s in samples(families, "shop_http_request_duration_seconds_bucket")
               if s.labels["route"] == "/api/v1/products/:id"]
    assert buckets and buckets[-1].labels["le"] == "+Inf" and buckets[-1].value == 2, buckets
    assert [s.value for s in samples(families, "shop_orders_placed_total")] == [1], text
    payments = {(s.labels["provider"], s.labels["result"]): s.value for s in samples(families, "shop_payments_total")}
    assert payments == {("mockpay", "notified"): 1}, payments
    sweeps = {s.labels["result"]: s.value for s in samples(families, "shop_sweeper_runs_total")}
    assert sweeps.get("ok", 0) >= 1, sweeps  # the sweeper runs once at start-up
    print(f"metrics: ok, {len(families)} families, {len(text.splitlines())} lines", flush=True)
finally:
    shop.stop()
    shop.close()
