"""Shared helpers for the scripts that drive a real `shop serve`: a temp shop, HTTP calls, signing.

Only the standard library: these scripts run on a fresh machine with nothing but python3.

The shop's database is a SQLite file in the shop's temp folder, unless SHOP_LAB_POSTGRES_URL names
a PostgreSQL server (e.g. `scripts/postgres.sh url`): then each Shop gets a database of its own,
lab_<random>, created on that server over psql, given to `shop` as SHOP_DATABASE_URL and dropped
at close."""
import hashlib
import hmac
import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOP = os.path.join(ROOT, ".build", "debug", "shop")
DEV_MOCKPAY_SECRET = "dev-mockpay-secret-not-for-production"
POSTGRES_URL = os.environ.get("SHOP_LAB_POSTGRES_URL", "")


def engine():
    """"postgresql" when SHOP_LAB_POSTGRES_URL is set, else "sqlite"."""
    return "postgresql" if POSTGRES_URL else "sqlite"


def psql_command():
    """Debian's psql for PostgreSQL 15 (installed with postgresql-15), else the one on PATH."""
    debian = "/usr/lib/postgresql/15/bin/psql"
    return debian if os.access(debian, os.X_OK) else (shutil.which("psql") or "psql")


def psql(url, sql):
    """Runs one statement with psql against `url`; returns its unaligned, tuples-only output."""
    result = subprocess.run([psql_command(), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"psql failed ({result.returncode}): {result.stderr.strip()}\n  {sql}")
    return result.stdout


def with_database(url, name):
    """`url` with its database (the path) replaced by `name`; query parameters kept."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Shop:
    """A shop in a temp folder: its own database and code file, served on a free port.

    The database is shop.sqlite in that folder, or a fresh PostgreSQL database when
    SHOP_LAB_POSTGRES_URL is set (see the module's doc)."""

    def __init__(self, extra_env=None):
        self.dir = tempfile.mkdtemp(prefix="floral-")
        self.port = free_port()
        self.metrics_port = free_port()
        self.env = dict(os.environ)
        self.env.update({
            "SHOP_DATABASE_PATH": os.path.join(self.dir, "shop.sqlite"),
            "SHOP_VERIFICATION_SENDER": "file",
            "SHOP_VERIFICATION_FILE_PATH": os.path.join(self.dir, "codes.jsonl"),
            "SHOP_SERVER_PORT": str(self.port),
            "SHOP_SERVER_METRICS_PORT": str(self.metrics_port),
            # no load balancer in front of a lab shop: stop at once on SIGTERM
            "SHOP_SERVER_DRAIN_SECONDS": "0",
            "SHOP_APP_LOG_LEVEL": "warning",
            "SHOP_AUTH_ARGON2_MEMORY_KIB": "1024",
            "SHOP_AUTH_ARGON2_ITERATIONS": "1",
        })
        self.engine = engine()
        self.postgres_database = None
        if self.engine == "postgresql":
            name = "lab_" + secrets.token_hex(6)
            psql(POSTGRES_URL, f'CREATE DATABASE "{name}"')
            self.postgres_database = name
            self.env["SHOP_DATABASE_URL"] = with_database(POSTGRES_URL, name)
        self.env.update(extra_env or {})
        self.process = None
        self.log = open(os.path.join(self.dir, "serve.log"), "ab")

    @property
    def database(self):
        """The SQLite file (only meaningful when engine is "sqlite")."""
        return self.env["SHOP_DATABASE_PATH"]

    def query(self, sql):
        """Rows of one SELECT, as tuples in column order, straight from the database (not via the
        server): sqlite3 on the file, or psql with the rows as JSON on PostgreSQL."""
        if self.engine == "postgresql":
            out = psql(self.env["SHOP_DATABASE_URL"],
                       f"SELECT coalesce(json_agg(row_to_json(q)), '[]') FROM ({sql}) AS q")
            return [tuple(row.values()) for row in json.loads(out)]
        import sqlite3
        db = sqlite3.connect(self.database)
        try:
            return db.execute(sql).fetchall()
        finally:
            db.close()

    def cli(self, *args, check=True, input=None):
        return subprocess.run([SHOP, *args], cwd=ROOT, env=self.env, check=check, capture_output=True, text=True, input=input)

    def start(self, timeout=20):
        self.process = subprocess.Popen([SHOP, "serve"], cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log)
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                status, _, _ = self.request("GET", "/healthz", timeout=1)
                if status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("shop serve did not come up; see " + os.path.join(self.dir, "serve.log"))

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def close(self):
        self.kill()
        self.log.close()
        if self.postgres_database:
            try:
                psql(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{self.postgres_database}" WITH (FORCE)')
            except RuntimeError as error:
                print(f"shoplab: could not drop {self.postgres_database}: {error}", flush=True)
            self.postgres_database = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def request(self, method, path, body=None, token=None, headers=None, timeout=10, source=None):
        return request(self.port, method, path, body, token, headers, timeout, source)

    def register(self, phone, password="flower-password"):
        """Signs up through the API with the code from the file sender; returns the token."""
        status, body, _ = self.request("POST", "/api/v1/auth/verification-codes", {"phone": phone, "purpose": "register"})
        assert status == 202, (status, body)
        code = None
        for entry in json_lines(self.env["SHOP_VERIFICATION_FILE_PATH"]):
            if entry["phone"] == phone:
                code = entry["code"]
        status, body, _ = self.request("POST", "/api/v1/auth/register", {"phone": phone, "code": code, "password": password})
        assert status == 201, (status, body)
        return body["token"]

    def add_address(self, token):
        status, body, _ = self.request("POST", "/api/v1/addresses", {
            "recipient": "测试", "phone": "13800138000", "province": "上海市", "city": "上海市",
            "district": "徐汇区", "detail": "漕溪北路 88 号"}, token=token)
        assert status == 201, (status, body)
        return body["id"]


def json_lines(path):
    """The complete lines of a JSON-lines file a node may be appending to, decoded; [] if there is
    no file yet. The file is read as bytes: its last line can be cut anywhere, even inside a
    character, so only the lines that end in a newline are decoded."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    return [json.loads(line.decode("utf-8")) for line in data.split(b"\n")[:-1]]


def request_parts(body=None, token=None, headers=None):
    """A request's body bytes and headers: a dict or list as JSON, bytes as they are, a bearer token."""
    all_headers = dict(headers or {})
    data = None
    if body is not None:
        data = body if isinstance(body, (bytes, bytearray)) else json.dumps(body).encode()
        all_headers.setdefault("Content-Type", "application/json")
    if token:
        all_headers["Authorization"] = "Bearer " + token
    return data, all_headers


def parsed_body(raw):
    """A response body as JSON, else as text, else None when empty."""
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return raw.decode(errors="replace")


def request(port, method, path, body=None, token=None, headers=None, timeout=10, source=None):
    """One HTTP request to 127.0.0.1:port; returns (status, parsed JSON or text, headers)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        data, all_headers = request_parts(body, token, headers)
        conn.request(method, path, body=data, headers=all_headers)
        response = conn.getresponse()
        return response.status, parsed_body(response.read()), dict(response.getheaders())
    finally:
        conn.close()


def mockpay_headers(body: bytes, secret=DEV_MOCKPAY_SECRET, timestamp=None):
    t = int(timestamp if timestamp is not None else time.time())
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return {"Content-Type": "application/json", "Mockpay-Signature": f"t={t},v1={mac}"}


def small_catalog(path, skus=6, stock=40):
    """A catalogue CSV of `skus` SKUs with `stock` each."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("product_code,sku_code,sku_name,title,category,price,stock\n")
        for i in range(skus):
            f.write(f"REL-{i // 2},REL-{i},规格{i},可靠性测试花束{i // 2},花束/测试,{19 + i}.90,{stock}\n")


# --- Slow and failing payment providers, and a shopper to watch while they misbehave -------------

# WeChat Pay's test keys (Sources/FakePaymentGateways/ProviderRules.swift, FakeGatewayKeys): public,
# never a real merchant's.
WECHAT_API_KEY = "192006250b4c09247ec02edce69f6a2d"
WECHAT_APP_ID = "wx2421b1c4370ec43b"
WECHAT_MCH_ID = "10000100"


def wechat_env(gateway_url, public_base_url="https://shop.floral.example"):
    """The SHOP_PAYMENTS_* settings that turn WeChat Pay on with the test keys, its API at `gateway_url`."""
    return {
        "SHOP_PAYMENTS_WECHATPAY_API_KEY": WECHAT_API_KEY,
        "SHOP_PAYMENTS_WECHATPAY_APP_ID": WECHAT_APP_ID,
        "SHOP_PAYMENTS_WECHATPAY_MCH_ID": WECHAT_MCH_ID,
        "SHOP_PAYMENTS_WECHATPAY_GATEWAY_URL": gateway_url,
        "SHOP_PAYMENTS_PUBLIC_BASE_URL": public_base_url,
    }


class SilentGateway:
    """A loopback TCP socket that accepts every connection and never answers (nor closes): a
    payment provider that hangs. `accepted` counts the connections it took."""

    def __init__(self):
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(1024)
        self.port = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.held = []
        self.accepted = 0
        self.closed = False
        self.thread = threading.Thread(target=self._accept, daemon=True, name="silent-gateway")
        self.thread.start()

    def _accept(self):
        while not self.closed:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.held.append(connection)  # kept open, never read from or written to
            self.accepted += 1

    def close(self):
        self.closed = True
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.socket.close()
        for connection in self.held:
            connection.close()
        self.held.clear()


def wechat_sign(fields, api_key=WECHAT_API_KEY):
    """WeChat Pay v2's MD5 signature: the non-empty fields but `sign`, sorted, `k=v&...&key=API_KEY`."""
    text = "&".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "sign" and v != "") + f"&key={api_key}"
    return hashlib.md5(text.encode()).hexdigest().upper()


def wechat_xml(fields):
    return "<xml>" + "".join(f"<{k}><![CDATA[{v}]]></{k}>" for k, v in fields.items()) + "</xml>"


class FastWechatGateway:
    """A tiny WeChat Pay v2 API on loopback that answers at once: `mode` "fail" answers every call
    with return_code FAIL (HTTP 200, so a business error, not an outage); "ok" answers a signed
    SUCCESS with a fresh prepay_id; `delay` seconds before each answer make it slow. `calls` counts
    the calls by path, `most_at_once` the most calls it held at one time."""

    def __init__(self, mode="fail", delay=0.0):
        import http.server
        self.mode = mode
        self.delay = delay
        self.at_once = 0
        self.most_at_once = 0
        self.calls = {}
        self.lock = threading.Lock()
        gateway = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with gateway.lock:
                    gateway.calls[self.path] = gateway.calls.get(self.path, 0) + 1
                    number = sum(gateway.calls.values())
                    gateway.at_once += 1
                    gateway.most_at_once = max(gateway.most_at_once, gateway.at_once)
                time.sleep(gateway.delay)
                with gateway.lock:
                    gateway.at_once -= 1
                if gateway.mode == "ok":
                    fields = {"return_code": "SUCCESS", "return_msg": "OK", "appid": WECHAT_APP_ID,
                              "mch_id": WECHAT_MCH_ID, "nonce_str": secrets.token_hex(16), "result_code": "SUCCESS",
                              "prepay_id": f"wx{number:030d}", "trade_type": "APP"}
                    fields["sign"] = wechat_sign(fields)
                else:
                    fields = {"return_code": "FAIL", "return_msg": "SYSTEMERROR"}
                body = wechat_xml(fields).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/xml; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the shop gave up waiting (its provider timeout) and closed the connection

            def log_message(self, *args):
                pass

        class Server(http.server.ThreadingHTTPServer):
            # socketserver listens with a backlog of 5: a burst of 32 connects overflowed it and
            # the dropped SYNs came back a second later, as timeouts of the shop's calls
            request_queue_size = 1024

        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True, name="fast-wechat-gateway")
        self.thread.start()

    def count(self, path="/pay/unifiedorder"):
        with self.lock:
            return self.calls.get(path, 0)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def _shopper_main(port, path, interval, source, connection, stop):
    """In a process of its own (no GIL shared with the load): GET `path` every `interval` seconds
    until `stop` is set, sending (start, seconds, status or error) per request through `connection`
    with `start` on the machine-wide monotonic clock."""
    while not stop.is_set():
        started = time.monotonic()
        try:
            status, _, _ = request(port, "GET", path, timeout=10, source=source)
            outcome = status
        except OSError as error:
            outcome = f"{type(error).__name__}: {error}"
        connection.send((started, time.monotonic() - started, outcome))
        time.sleep(interval)
    connection.send(None)
    connection.close()


class Shopper:
    """A shopper reading one page over and over (a fresh connection each time, from `source`), in a
    separate process so the load the test makes in this one never delays its requests. `samples`
    holds (start, seconds, status or error string), start on time.monotonic()'s clock."""

    def __init__(self, port, path, interval=0.005, source="127.0.0.2"):
        import multiprocessing
        context = multiprocessing.get_context("spawn")
        self.stop_event = context.Event()
        receiving, sending = context.Pipe(duplex=False)
        self.process = context.Process(target=_shopper_main, args=(port, path, interval, source, sending, self.stop_event),
                                       daemon=True)
        self.process.start()
        sending.close()
        self.samples = []
        self.lock = threading.Lock()

        def collect():
            while True:
                try:
                    sample = receiving.recv()
                except EOFError:
                    return
                if sample is None:
                    return
                with self.lock:
                    self.samples.append(sample)

        self.reader = threading.Thread(target=collect, daemon=True, name="shopper-reader")
        self.reader.start()

    def wait_for(self, count, timeout=10):
        """Waits until `count` samples came in (the shopper is up and reading)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.samples) >= count:
                    return True
            time.sleep(0.01)
        return False

    def between(self, start, end=float("inf")):
        """The samples whose request started in [start, end)."""
        with self.lock:
            return [s for s in self.samples if start <= s[0] < end]

    def stop(self):
        self.stop_event.set()
        self.reader.join(timeout=15)
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()


def percentile(values, p):
    """The p-th percentile (nearest rank) of `values`; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[min(len(ordered), int(rank)) - 1]


def latency_summary(samples):
    """`n reads, p50 … ms, p99 … ms, max … ms` of shopper samples."""
    seconds = [s[1] for s in samples]
    return (f"{len(samples)} reads, p50 {percentile(seconds, 50) * 1000:.1f} ms, "
            f"p99 {percentile(seconds, 99) * 1000:.1f} ms, max {max(seconds, default=0) * 1000:.1f} ms")


def error_code(body):
    """The `error.code` of an error answer, else None."""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return body["error"].get("code")
    return None


def metrics(shop):
    """The shop's /metrics as {"name{labels}": value}."""
    conn = http.client.HTTPConnection("127.0.0.1", shop.metrics_port, timeout=5)
    try:
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
    finally:
        conn.close()
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            try:
                values[name] = float(value)
            except ValueError:
                pass
    return values
