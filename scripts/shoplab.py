"""Shared helpers for the scripts that drive a real `shop serve`: a temp shop, HTTP calls, signing.

Only the standard library: these scripts run on a fresh machine with nothing but python3."""
import hashlib
import hmac
import http.client
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOP = os.path.join(ROOT, ".build", "debug", "shop")
DEV_MOCKPAY_SECRET = "dev-mockpay-secret-not-for-production"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Shop:
    """A shop in a temp folder: its own database and code file, served on a free port."""

    def __init__(self, extra_env=None):
        self.dir = tempfile.mkdtemp(prefix="floral-")
        self.port = free_port()
        self.env = dict(os.environ)
        self.env.update({
            "SHOP_DATABASE_PATH": os.path.join(self.dir, "shop.sqlite"),
            "SHOP_VERIFICATION_SENDER": "file",
            "SHOP_VERIFICATION_FILE_PATH": os.path.join(self.dir, "codes.jsonl"),
            "SHOP_SERVER_PORT": str(self.port),
            "SHOP_APP_LOG_LEVEL": "warning",
            "SHOP_AUTH_ARGON2_MEMORY_KIB": "1024",
            "SHOP_AUTH_ARGON2_ITERATIONS": "1",
        })
        self.env.update(extra_env or {})
        self.process = None
        self.log = open(os.path.join(self.dir, "serve.log"), "ab")

    @property
    def database(self):
        return self.env["SHOP_DATABASE_PATH"]

    def cli(self, *args, check=True):
        return subprocess.run([SHOP, *args], cwd=ROOT, env=self.env, check=check, capture_output=True, text=True)

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
        shutil.rmtree(self.dir, ignore_errors=True)

    def request(self, method, path, body=None, token=None, headers=None, timeout=10, source=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                          source_address=(source, 0) if source else None)
        try:
            all_headers = dict(headers or {})
            data = None
            if body is not None:
                data = body if isinstance(body, (bytes, bytearray)) else json.dumps(body).encode()
                all_headers.setdefault("Content-Type", "application/json")
            if token:
                all_headers["Authorization"] = "Bearer " + token
            conn.request(method, path, body=data, headers=all_headers)
            response = conn.getresponse()
            raw = response.read()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw.decode(errors="replace")
            return response.status, parsed, dict(response.getheaders())
        finally:
            conn.close()

    def register(self, phone, password="flower-password"):
        """Signs up through the API with the code from the file sender; returns the token."""
        status, body, _ = self.request("POST", "/api/v1/auth/verification-codes", {"phone": phone, "purpose": "register"})
        assert status == 202, (status, body)
        code = None
        with open(self.env["SHOP_VERIFICATION_FILE_PATH"], encoding="utf-8") as f:
            for line in f:
                entry = json.loads(line)
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
