"""Stateless nodes, proved: two real `shop serve` processes on one database, and whatever one node
writes, the other reads on its very next request; a catalogue change made anywhere (here by a third
process, `shop import catalog`) reaches both nodes' kept pages within the documented staleness
(1 s on PostgreSQL, where nodes are told by notification and check kept pages without a statement;
at once on SQLite) (make cross-node; part of make test-postgres).

With SHOP_LAB_POSTGRES_URL (scripts/postgres.sh url) both nodes share a fresh PostgreSQL database
lab_<random>, dropped at the end; without it they share one SQLite file. Both nodes use one
file sender (codes.jsonl), so a code asked for through one node can be read and used at the other.
Exit status 0 when every check passes."""
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shoplab import POSTGRES_URL, Shop, json_lines, psql, small_catalog  # noqa: E402


def second_node(a):
    """Another shop serve over a's database and a's code file, on a port of its own."""
    b = Shop(extra_env={
        "SHOP_DATABASE_PATH": a.env["SHOP_DATABASE_PATH"],
        "SHOP_VERIFICATION_FILE_PATH": a.env["SHOP_VERIFICATION_FILE_PATH"],
    })
    if b.postgres_database:
        # Shop made b a database of its own: b uses a's instead.
        psql(POSTGRES_URL, f'DROP DATABASE "{b.postgres_database}"')
        b.postgres_database = None
        b.env["SHOP_DATABASE_URL"] = a.env["SHOP_DATABASE_URL"]
    return b


def latest_code(shop, phone):
    code = None
    for entry in json_lines(shop.env["SHOP_VERIFICATION_FILE_PATH"]):
        if entry["phone"] == phone:
            code = entry["code"]
    assert code, f"no code for {phone} in the file sender"
    return code


def expect(status, body, wanted, what):
    assert status == wanted, f"{what}: {status} {body}"
    print(f"ok  {what}", flush=True)
    return body


def sku_price(node, product_id, sku_code):
    status, body, _ = node.request("GET", f"/api/v1/products/{product_id}")
    assert status == 200, (status, body)
    return next(s["price_cents"] for s in body["skus"] if s["code"] == sku_code)


def rewrite_catalog(src_path, dst_path, prefix, column, value):
    """Copies the catalogue CSV at src_path to dst_path with `column` set to `value` on the lines
    starting with `prefix`."""
    with open(src_path, encoding="utf-8") as src, open(dst_path, "w", encoding="utf-8") as dst:
        for line in src:
            if line.startswith(prefix):
                fields = line.rstrip("\n").split(",")
                fields[column] = value
                line = ",".join(fields) + "\n"
            dst.write(line)


# PushedCatalogVersions.maxStaleness: how long a change may take to reach a PostgreSQL node's kept pages.
MAX_STALENESS = 1.0


def within_staleness(name, what, check):
    """Polls `check` until it holds; asserts it did within MAX_STALENESS (at once on SQLite)."""
    start = time.monotonic()
    bound = MAX_STALENESS if os.environ.get("SHOP_LAB_POSTGRES_URL") else 0.0
    while not check():
        waited = time.monotonic() - start
        assert waited <= bound, f"{name} did not show {what} within {bound} s"
        time.sleep(0.01)
    return time.monotonic() - start


def statements(a):
    """Statements PostgreSQL ran in the lab database so far, by text (pg_stat_statements)."""
    rows = a.query("SELECT s.query, s.calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
                   "WHERE d.datname = current_database()")
    return {row[0]: int(row[1]) for row in rows}


def main():
    a = Shop()
    b = second_node(a)
    try:
        catalog = os.path.join(a.dir, "catalog.csv")
        small_catalog(catalog)
        a.cli("migrate")
        a.cli("import", "catalog", catalog)
        a.start()
        b.start()
        print(f"nodes: A :{a.port}, B :{b.port} on {a.engine}", flush=True)

        # Registration: the code is asked for through A, and used through B.
        phone = "139" + uuid.uuid4().int.__str__()[:8]
        expect(*a.request("POST", "/api/v1/auth/verification-codes", {"phone": phone, "purpose": "register"})[:2],
               202, "code requested through A")
        status, body, _ = b.request("POST", "/api/v1/auth/register",
                                    {"phone": phone, "code": latest_code(a, phone), "password": "flower-password"})
        expect(status, body, 201, "registered through B with the code A sent")

        status, body, _ = b.request("POST", "/api/v1/auth/login", {"phone": phone, "password": "flower-password"})
        token = expect(status, body, 200, "logged in through B")["token"]
        expect(*a.request("GET", "/api/v1/me", token=token)[:2], 200, "B's session token accepted by A")

        # The catalogue both nodes see: product REL-0 has SKUs REL-0 and REL-1.
        status, page, _ = a.request("GET", "/api/v1/products?per_page=50")
        assert status == 200, (status, page)
        product = next(p for p in page["items"] if p["title"] == "可靠性测试花束0")
        status, detail, _ = a.request("GET", f"/api/v1/products/{product['id']}")
        skus = {s["code"]: s for s in detail["skus"]}
        cart_sku, order_sku = skus["REL-0"], skus["REL-1"]

        # Cart: written through A, read through B.
        status, cart, _ = a.request("POST", "/api/v1/cart/items", {"sku_id": cart_sku["id"], "quantity": 2}, token=token)
        expect(status, cart, 201, "2 × REL-0 added to the cart through A")
        status, cart, _ = b.request("GET", "/api/v1/cart", token=token)
        expect(status, cart, 200, "cart read through B")
        assert [(line["sku_id"], line["quantity"]) for line in cart["items"]] == [(cart_sku["id"], 2)], cart
        assert cart["selected_total_cents"] == 2 * cart_sku["price_cents"], cart
        print(f"ok  B sees A's cart line, total {cart['selected_total_cents']} cents", flush=True)

        # Order: placed through B ("buy now", the cart untouched), listed through A.
        address = a.add_address(token)
        status, order, _ = b.request("POST", "/api/v1/orders",
                                     {"address_id": address, "items": [{"sku_id": order_sku["id"], "quantity": 1}]},
                                     token=token, headers={"Idempotency-Key": str(uuid.uuid4())})
        expect(status, order, 201, "order placed through B")
        status, orders, _ = a.request("GET", "/api/v1/orders", token=token)
        expect(status, orders, 200, "orders listed through A")
        assert [o["number"] for o in orders["items"]] == [order["number"]], orders
        print(f"ok  A lists B's order {order['number']}", flush=True)

        # A price change by `shop import catalog`: both nodes show it on their next request.
        old = cart_sku["price_cents"]
        for node in (a, b):  # each node has read (and may have cached) the old price
            assert sku_price(node, product["id"], "REL-0") == old
            assert node.request("GET", "/api/v1/products?per_page=50")[0] == 200
        repriced = os.path.join(a.dir, "repriced.csv")
        rewrite_catalog(catalog, repriced, "REL-0,REL-0,", 5, "88.80")  # the price column
        a.cli("import", "catalog", repriced)
        for name, node in (("A", a), ("B", b)):
            waited = within_staleness(name, "the new price", lambda: sku_price(node, product["id"], "REL-0") == 8880)
            status, cart, _ = node.request("GET", "/api/v1/cart", token=token)
            assert status == 200 and cart["selected_total_cents"] == 2 * 8880, (name, status, cart)
            status, page, _ = node.request("GET", "/api/v1/products?per_page=50")
            listed = next(p for p in page["items"] if p["id"] == product["id"])
            assert listed["price_cents"] == min(8880, skus["REL-1"]["price_cents"]), (name, listed)
            print(f"ok  {name} shows the new price 8880 after {waited * 1000:.0f} ms and the cart total "
                  f"{cart['selected_total_cents']}", flush=True)

        # A stock-out (every SKU of the product at 0, by import): both nodes' kept pages and lists say so.
        sold_out = os.path.join(a.dir, "sold_out.csv")
        rewrite_catalog(repriced, sold_out, "REL-0,", 6, "0")  # the stock column, both SKUs of REL-0
        a.cli("import", "catalog", sold_out)

        def shows_sold_out(node):
            status, body, _ = node.request("GET", f"/api/v1/products/{product['id']}")
            _, page, _ = node.request("GET", "/api/v1/products?per_page=50")
            listed = next(p for p in page["items"] if p["id"] == product["id"])
            return status == 200 and body["in_stock"] is False and listed["in_stock"] is False

        for name, node in (("A", a), ("B", b)):
            waited = within_staleness(name, "the stock-out", lambda: shows_sold_out(node))
            print(f"ok  {name} shows the stock-out after {waited * 1000:.0f} ms", flush=True)

        # On PostgreSQL a kept page costs the database nothing: 1,000 kept answers through B, and the
        # only statements in that time are the nodes' version readings (a few a second each).
        if os.environ.get("SHOP_LAB_POSTGRES_URL"):
            psql(a.env["SHOP_DATABASE_URL"], "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            path = f"/api/v1/products/{product['id']}"
            assert b.request("GET", path)[0] == 200
            # Each node's SearchTermsWarmer reads the catalogue once within a second of a change (the
            # stock-out above) to build the pinyin lexicon ahead of the next query: let it finish.
            time.sleep(2.5)
            before = statements(a)
            start = time.monotonic()
            for _ in range(1000):
                assert b.request("GET", path)[0] == 200
            elapsed = time.monotonic() - start
            after = statements(a)
            ran = {q: after[q] - before.get(q, 0) for q in after if after[q] != before.get(q, 0)}
            versions = sum(n for q, n in ran.items() if "FROM catalog_changes" in q and "UNION ALL" in q)
            # Background work runs meanwhile (the notices dispatcher, the sweeper): only a statement on
            # the catalogue would be a kept page asking the database (no catalogue change happens now,
            # so the search-terms warmers read nothing).
            catalogue = ("products", "skus", "categories", "catalog_changes", "catalog_version", "product_images")
            others = {q: n for q, n in ran.items() if not ("FROM catalog_changes" in q and "UNION ALL" in q)
                      and any(word in q for word in catalogue)}
            assert not others, f"kept pages ran statements: {others}"
            total = sum(n for q, n in ran.items() if "pg_stat_statements" not in q)
            print(f"ok  1000 kept pages through B in {elapsed:.2f} s ran no statement on the catalogue; meanwhile the "
                  f"two nodes read the versions {versions} times, {total} statements in all with background work "
                  f"({total / 1000:.3f} per request)", flush=True)

        # The per-phone code cooldown holds across nodes.
        other = "137" + uuid.uuid4().int.__str__()[:8]
        expect(*a.request("POST", "/api/v1/auth/verification-codes", {"phone": other, "purpose": "register"})[:2],
               202, "code requested through A")
        status, body, headers = b.request("POST", "/api/v1/auth/verification-codes", {"phone": other, "purpose": "register"})
        expect(status, body, 429, "asked again through B straight away: 429")
        assert body["error"]["code"] == "code_cooldown", body
        assert int(headers.get("Retry-After", "0")) > 0, headers
        print("ok  B enforces the cooldown A started (code_cooldown)", flush=True)
        print("cross-node: every check passed", flush=True)
    except Exception:
        for name, node in (("A", a), ("B", b)):
            node.log.flush()
            with open(os.path.join(node.dir, "serve.log"), errors="replace") as f:
                tail = f.readlines()[-15:]
            print(f"--- node {name} serve.log (last lines)\n" + "".join(tail), file=sys.stderr)
        raise
    finally:
        b.close()
        a.close()


if __name__ == "__main__":
    main()
