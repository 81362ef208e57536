"""Faults a many-node shop must survive, on a real cluster (make fault; part of make test-postgres,
so CI runs it): HAProxy in front of three `shop serve` nodes, a PostgreSQL primary and its
streaming standby, all started by scripts/cluster.sh in a folder and on ports of this run's own
(beside any `make cluster` or test cluster of yours, which it never touches). Buyers check out and pay through HAProxy the
whole time, retrying a failed request with the same Idempotency-Key as a real app does. Half of them
(and one of the two product-page visitors) keep their connection to HAProxy alive as an app does, so
their later requests ride HAProxy's pooled connections to the nodes (`http-reuse safe`); the others
open a connection per request, which HAProxy never puts on a pooled one.

  0. a rolling restart: each node in turn gets SIGTERM, drains and is started again, and not
     one request fails;
  1. kill -9 one node in the middle of checkout traffic, then start it again;
  2. stop the PostgreSQL primary (fast shutdown) for a few seconds and start it again;
  3. fill every connection pool: a transaction holds a lock the checkouts need, so each node's
     connections all wait on it, and new requests find none free.

Then: no SKU oversold, stock + sold = initial, every order and payment that got a 2xx is in the
database exactly once, during the outage and the full pools every 5xx was 503
`database_unavailable` (the database down) or `database_busy` (a full pool) in the API's error shape (never a 500, HAProxy's own page or a hang), and
the nodes that were not killed recovered without a restart. Bounded: about a minute, loopback only.
Exit status 0 when every check passes."""
import http.client
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shoplab import ROOT, SHOP, json_lines, mockpay_headers, parsed_body, psql, psql_command, request, request_parts  # noqa: E402

POOL_SIZE = 2
THREADS = 8  # more request threads than pooled connections, so a stalled database fills the pool
POOL_TIMEOUT = 2
BUYERS = 6
failures = []


def check(name, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok else f"  [{detail[:400]}]"), flush=True)
    if not ok:
        failures.append(name)


def free_block(count):
    """A first port of `count` consecutive free loopback ports."""
    for _ in range(200):
        base = random.randint(20000, 40000)
        sockets = []
        try:
            for offset in range(count):
                s = socket.socket()
                sockets.append(s)
                s.bind(("127.0.0.1", base + offset))
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    raise RuntimeError("no block of free ports")


class Cluster:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="floral-fault-")
        os.chmod(self.dir, 0o755)  # the postgres user (when we are root) keeps its cluster in here
        self.port = free_block(4)
        postgres_port = free_block(2)
        self.metrics = free_block(4)
        self.database = "fault_" + secrets.token_hex(5)
        self.env = dict(os.environ)
        self.env.update({
            "CLUSTER_DIR": self.dir, "CLUSTER_PORT": str(self.port), "CLUSTER_METRICS_PORT": str(self.metrics),
            "CLUSTER_DATABASE": self.database, "CLUSTER_STANDBY": "1",
            "SHOP_DATABASE_POOL_SIZE": str(POOL_SIZE), "SHOP_SERVER_THREADS": str(THREADS), "SHOP_DATABASE_POOL_TIMEOUT_SECONDS": str(POOL_TIMEOUT),
            "SHOP_ORDERS_MAX_UNPAID_PER_USER": "100000", "SHOP_APP_LOG_LEVEL": "warning",
            "SHOP_AUTH_ARGON2_MEMORY_KIB": "1024", "SHOP_AUTH_ARGON2_ITERATIONS": "1",
            # HAProxy needs two failed checks a second apart to take a draining node out (plus margin for a loaded CI machine).
            "SHOP_SERVER_DRAIN_SECONDS": "4",
            # A PostgreSQL primary and standby of this run's own: stopping the primary touches no one
            # else's, and no port a developer's cluster holds is needed.
            "PGPORT": str(postgres_port), "PGSTANDBY_PORT": str(postgres_port + 1),
            "PG_CLUSTER_DIR": os.path.join(self.dir, "postgres"),
        })
        self.script("postgres.sh", "start")
        self.url = self.script("postgres.sh", "createdb", self.database).strip()
        self.env["SHOP_DATABASE_URL"] = self.url

    def script(self, name, *args, check=True):
        result = subprocess.run([os.path.join(ROOT, "scripts", name), *args], cwd=ROOT, env=self.env,
                                capture_output=True, text=True)
        if check and result.returncode != 0:
            raise RuntimeError(f"{name} {' '.join(args)} failed: {result.stdout}{result.stderr}")
        return result.stdout

    def shop(self, *args):
        return subprocess.run([SHOP, *args], cwd=ROOT, env=self.env, check=True, capture_output=True, text=True)

    def query(self, sql):
        out = psql(self.url, f"SELECT coalesce(json_agg(row_to_json(q)), '[]') FROM ({sql}) AS q")
        return [tuple(row.values()) for row in json.loads(out)]

    def node_pid(self, i):
        with open(os.path.join(self.dir, f"node{i}.pid")) as f:
            return int(f.read().strip())

    def request(self, method, path, body=None, token=None, headers=None, port=None, timeout=15):
        return request(port or self.port, method, path, body, token, headers, timeout)

    def metric_sum(self, name, label=None):
        """The sum over the three nodes of every series of `name` (only those whose labels hold
        `label`, e.g. 'bulkhead="database"', when given)."""
        total = 0.0
        for i in (1, 2, 3):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.metrics + i, timeout=5)
                conn.request("GET", "/metrics")
                text = conn.getresponse().read().decode()
                conn.close()
            except OSError:
                continue
            for line in text.splitlines():
                if line.startswith(name + "{") or line.startswith(name + " "):
                    if label is None or label in line.split(" ", 1)[0]:
                        total += float(line.rsplit(" ", 1)[1])
        return total

    def close(self):
        self.script("cluster.sh", "stop", check=False)
        self.script("postgres.sh", "stop", check=False)
        subprocess.run(["rm", "-rf", self.dir])


class KeptConnection:
    """One client connection to HAProxy kept alive from request to request, as an app's HTTP client
    keeps it; after a failure (or a response that closes it) the next request opens a new one."""

    def __init__(self, port):
        self.port = port
        self.conn = None

    def request(self, method, path, body=None, token=None, headers=None, timeout=15):
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        data, all_headers = request_parts(body, token, headers)
        try:
            self.conn.request(method, path, body=data, headers=all_headers)
            response = self.conn.getresponse()
            raw = response.read()
        except BaseException:
            self.conn.close()
            self.conn = None
            raise
        if response.will_close:
            self.conn.close()
            self.conn = None
        return response.status, parsed_body(raw), dict(response.getheaders())


class Traffic:
    """Buyers checking out and paying through HAProxy until stopped; every answer is recorded
    by phase, and a request that failed for want of a node or a database is retried with the
    same Idempotency-Key (the order) or event id (the payment)."""

    def __init__(self, cluster, buyers, skus, prefix):
        self.cluster = cluster
        self.prefix = prefix
        self.buyers = buyers
        self.skus = skus
        self.lock = threading.Lock()
        self.phase = "warm-up"
        self.answers = []            # (phase, what, status, code or None, seconds)
        self.orders = {}             # number -> (id, idempotency key)
        self.payments = set()        # event ids answered 200
        self.stop = threading.Event()
        self.threads = []

    def record(self, what, status, body, seconds):
        code = body.get("error", {}).get("code") if isinstance(body, dict) and isinstance(body.get("error"), dict) else None
        with self.lock:
            self.answers.append((self.phase, what, status, code, seconds))

    def call(self, what, *args, client=None, **kwargs):
        """One request with retries while it fails for want of a node or the database (up to ~20 s);
        through `client` (a KeptConnection) when given, else on a connection of its own."""
        deadline = time.time() + 20
        while True:
            started = time.time()
            try:
                status, body, headers = (client or self.cluster).request(*args, **kwargs)
            except (OSError, http.client.HTTPException):
                self.record(what, "connection error", None, time.time() - started)
                status, body = None, None
            else:
                self.record(what, status, body, time.time() - started)
            if status is not None and status < 500:
                return status, body
            if time.time() > deadline or self.stop.is_set():
                return status, body
            time.sleep(0.2)

    def buyer(self, index):
        token, address = self.buyers[index]
        local = random.Random(index)
        client = KeptConnection(self.cluster.port) if index % 2 else None
        n = 0
        while not self.stop.is_set():
            n += 1
            key = f"{self.prefix}{index}-{n}"
            sku = local.choice(self.skus)
            status, body = self.call("order", "POST", "/api/v1/orders",
                                     {"address_id": address, "items": [{"sku_id": sku, "quantity": local.randint(1, 2)}]},
                                     token=token, headers={"Idempotency-Key": key}, client=client)
            if status != 201:
                continue
            with self.lock:
                self.orders[body["number"]] = (body["id"], key)
            if local.random() < 0.6:
                event = {"event_id": f"evt-{body['number']}", "order_number": body["number"],
                         "amount_cents": body["total_cents"], "currency": "CNY", "status": "succeeded",
                         "occurred_at": "2026-11-30T08:00:00Z"}
                raw = json.dumps(event).encode()
                status, _ = self.call("payment", "POST", "/api/v1/webhooks/payments/mockpay", raw,
                                      headers=mockpay_headers(raw), client=client)
                if status == 200:
                    with self.lock:
                        self.payments.add(event["event_id"])

    def browser(self, index):
        """A signed-out visitor on product pages (the standby's reads)."""
        local = random.Random(100 + index)
        client = KeptConnection(self.cluster.port) if index % 2 else self.cluster
        while not self.stop.is_set():
            started = time.time()
            try:
                status, body, _ = client.request("GET", f"/api/v1/products/{local.choice(self.products)}")
                self.record("product page", status, body, time.time() - started)
            except (OSError, http.client.HTTPException):
                self.record("product page", "connection error", None, time.time() - started)
            time.sleep(0.05)

    def start(self, products):
        self.products = products
        self.threads = [threading.Thread(target=self.buyer, args=(i,)) for i in range(len(self.buyers))]
        self.threads += [threading.Thread(target=self.browser, args=(i,)) for i in range(2)]
        for t in self.threads:
            t.start()

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=60)
        return all(not t.is_alive() for t in self.threads)

    def of(self, phase):
        with self.lock:
            return [a for a in self.answers if a[0] == phase]


def is_unavailable_shape(answer, codes=("database_unavailable", "database_busy")):
    _, _, status, code, _ = answer
    return status == 503 and code in codes


def main():
    cluster = Cluster()
    print(f"cluster in {cluster.dir}: HAProxy :{cluster.port}, database {cluster.database}", flush=True)
    try:
        cluster.shop("migrate")
        catalog = os.path.join(cluster.dir, "catalog.csv")
        with open(catalog, "w", encoding="utf-8") as f:
            f.write("product_code,sku_code,sku_name,title,category,price,stock\n")
            for i in range(6):
                f.write(f"FLT-{i // 2},FLT-{i},规格{i},故障测试花束{i // 2},花束/测试,{19 + i}.90,100000\n")
        cluster.shop("import", "catalog", catalog)
        initial = dict(cluster.query("SELECT id, stock FROM skus"))
        products = [row[0] for row in cluster.query("SELECT id FROM products")]
        out = cluster.script("cluster.sh", "start")
        check("the cluster starts with a standby", "standby:" in out, out)
        first_pids = {i: cluster.node_pid(i) for i in (1, 2, 3)}

        buyers = []
        for i in range(BUYERS):
            phone = f"1360000{2000 + i}"
            status, body, _ = cluster.request("POST", "/api/v1/auth/verification-codes", {"phone": phone, "purpose": "register"})
            assert status == 202, (status, body)
            code = None
            for entry in json_lines(os.path.join(cluster.dir, "codes.jsonl")):
                if entry["phone"] == phone:
                    code = entry["code"]
            status, body, _ = cluster.request("POST", "/api/v1/auth/register", {"phone": phone, "code": code, "password": "flower-password"})
            assert status == 201, (status, body)
            token = body["token"]
            status, body, _ = cluster.request("POST", "/api/v1/addresses", {
                "recipient": "测试", "phone": "13800138000", "province": "上海市", "city": "上海市",
                "district": "徐汇区", "detail": "漕溪北路 88 号"}, token=token)
            assert status == 201, (status, body)
            buyers.append((token, body["id"]))

        traffic = Traffic(cluster, buyers, list(initial), "steady")
        traffic.start(products)
        time.sleep(2)

        # 0. a rolling restart: SIGTERM, /readyz turns 503, HAProxy drains the node, it stops, it starts.
        traffic.phase = "rolling restart"
        for i in (1, 2, 3):
            pid = cluster.node_pid(i)
            os.kill(pid, 15)
            deadline = time.time() + 30
            while time.time() < deadline and os.path.exists(f"/proc/{pid}") and \
                    not open(f"/proc/{pid}/stat").read().split(") ")[1].startswith("Z"):
                time.sleep(0.1)
            cluster.script("cluster.sh", "start")
            time.sleep(2.5)  # two good checks bring it back
        print("rolling restart done", flush=True)
        rolled = traffic.of("rolling restart")
        failed = [a for a in rolled if a[2] == "connection error" or a[2] >= 500]
        check(f"a rolling restart of all three nodes failed no request ({len(rolled)} answered)",
              rolled and not failed, str(failed[:5]))
        first_pids = {i: cluster.node_pid(i) for i in (1, 2, 3)}

        # 1. kill -9 a node mid-checkout, then bring it back.
        traffic.phase = "node killed"
        os.kill(cluster.node_pid(2), 9)
        print("node2 killed (SIGKILL)", flush=True)
        time.sleep(3)
        cluster.script("cluster.sh", "start")
        status, _, _ = cluster.request("GET", "/readyz", port=cluster.port + 2)
        check("the killed node rejoins after a start", status == 200, str(status))
        time.sleep(2)

        # 2. stop the primary (fast shutdown) for a few seconds.
        traffic.phase = "primary down"
        cluster.script("postgres.sh", "primary-stop")
        print("PostgreSQL primary stopped (fast)", flush=True)
        time.sleep(4)
        cluster.script("postgres.sh", "start")
        print("PostgreSQL primary started", flush=True)
        traffic.phase = "primary back"
        deadline = time.time() + 30
        recovered = False
        while time.time() < deadline and not recovered:
            recovered = all(cluster.request("GET", "/readyz", port=cluster.port + i)[0] == 200 for i in (1, 2, 3))
            time.sleep(0.5)
        check("every node is ready again after the database returns, without a restart", recovered)
        time.sleep(2)

        # 3. fill every pool: a transaction holds every SKU row locked, so checkouts pile up behind it.
        traffic.phase = "pools full"
        holder = subprocess.Popen([psql_command(), "-X", "-q", "-d", cluster.url, "-c",
                                   "BEGIN; SELECT count(*) FROM (SELECT id FROM skus FOR UPDATE) AS locked; SELECT pg_sleep(6); COMMIT;"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        # More checkouts at once than the three pools have connections.
        burst = Traffic(cluster, buyers * 4, list(initial), "burst")
        burst.phase = "pools full"
        burst.start(products)
        _, holder_errors = holder.communicate(timeout=30)
        check("the lock was held (psql)", holder.returncode == 0, holder_errors)
        time.sleep(1)
        burst_done = burst.finish()
        traffic.phase = "settled"
        time.sleep(3)
        finished = traffic.finish()
        check("every client thread finished (no request hung)", finished and burst_done)

        # What the clients saw.
        answers = traffic.answers + burst.answers
        served_errors = [a for a in answers if a[2] == 500]
        check("no request was answered 500", not served_errors, str(served_errors[:3]))
        outage = [a for a in answers if a[0] in ("primary down", "pools full") and (a[2] == "connection error" or a[2] >= 500)]
        wrong = [a for a in outage if not is_unavailable_shape(a)]
        check("during the outage and the full pools every 5xx was 503 database_unavailable or database_busy",
              not wrong and any(is_unavailable_shape(a, ("database_unavailable",)) for a in answers if a[0] == "primary down"),
              f"{len(wrong)} of {len(outage)}: {wrong[:5]}")
        check("a full pool answered 503 database_busy", any(is_unavailable_shape(a, ("database_busy",)) for a in answers if a[0] == "pools full"))
        slow = [a for a in answers if a[4] > 12]
        check("no request took longer than 12 s (the lock held 6 s, the pool wait is 2 s)", not slow, str(slow[:3]))
        pages = [a for a in traffic.answers if a[0] == "primary down" and a[1] == "product page"]
        check("product pages kept answering 200 from the standby while the primary was down",
              pages and sum(1 for a in pages if a[2] == 200) >= len(pages) * 0.8,
              f"{[a[2] for a in pages][:20]}")
        # A full pool answers 503 database_busy in one of two ways: a request that waited
        # database.pool_timeout_seconds on the database bulkhead (a pool timeout), or one the
        # bulkhead refused at once because its queue was full (a rejection). Which one a run sees
        # depends on timing; either must be counted.
        timeouts = cluster.metric_sum("shop_db_pool_timeouts_total")
        rejections = cluster.metric_sum("shop_bulkhead_rejections_total", 'bulkhead="database"')
        check("a full pool shows in /metrics (pool timeouts or database bulkhead rejections)", timeouts + rejections > 0,
              f"timeouts={timeouts} rejections={rejections}")
        placed = [a for a in answers if a[0] == "settled" and a[1] == "order" and a[2] == 201]
        check("checkouts succeed again after the faults", placed, "no 201 in the settled phase")

        # What the database holds.
        stock = dict(cluster.query("SELECT id, stock FROM skus"))
        sold = dict(cluster.query("""
            SELECT i.sku_id, SUM(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id
            WHERE o.status <> 'cancelled' GROUP BY i.sku_id"""))
        check("no SKU oversold (stock never negative)", all(v >= 0 for v in stock.values()), str(stock))
        check("stock + sold = initial for every SKU", all(stock[s] + sold.get(s, 0) == initial[s] for s in initial),
              f"stock={stock} sold={sold}")
        orders = {row[0]: row[1] for row in cluster.query("SELECT number, id FROM orders")}
        acknowledged = {**traffic.orders, **burst.orders}
        missing = [n for n, (order_id, _) in acknowledged.items() if orders.get(n) != order_id]
        check(f"all {len(acknowledged)} acknowledged orders exist", acknowledged and not missing, str(missing[:5]))
        keys = cluster.query("SELECT count(*) FROM idempotency_keys")[0][0]
        check("each order was placed once (one order per Idempotency-Key, none twice on a retry)",
              keys == len(orders), f"{keys} keys, {len(orders)} orders")
        events = {row[0] for row in cluster.query("SELECT event_id FROM payment_events WHERE provider = 'mockpay'")}
        paid = traffic.payments | burst.payments
        check(f"all {len(paid)} acknowledged payments exist", paid and paid <= events, str(list(paid - events)[:5]))
        twice = cluster.query("SELECT order_number FROM payment_events WHERE outcome = 'paid' GROUP BY order_number HAVING COUNT(*) > 1")
        check("no payment applied twice", not twice, str(twice[:5]))
        paid_orders = {row[0] for row in cluster.query("SELECT number FROM orders WHERE status = 'paid'")}
        paid_events = {row[0] for row in cluster.query("SELECT order_number FROM payment_events WHERE outcome = 'paid'")}
        check("every paid order has exactly its paid event", paid_orders == paid_events)
        check("nodes 1 and 3 ran throughout (recovered from the outage without a restart)",
              all(cluster.node_pid(i) == first_pids[i] for i in (1, 3)))
        counts = {}
        for a in answers:
            counts.setdefault(a[0], {}).setdefault(str(a[2]), 0)
            counts[a[0]][str(a[2])] += 1
        for phase, by_status in counts.items():
            slowest = max((a[4] for a in answers if a[0] == phase), default=0)
            print(f"      {phase}: {dict(sorted(by_status.items()))}, slowest {slowest:.1f} s", flush=True)
    finally:
        cluster.close()
    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        return 1
    print("all fault checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
