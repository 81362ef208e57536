"""Web payment on a computer (issue 31) in the browser test: steps mixed into browser_test.Run.

On by default (PAY_BROWSER_TEST=0 leaves them out). Before the shop starts, `start_fakes` runs
`.build/debug/fake-payments` on free loopback ports and gives the shop its SHOP_PAYMENTS_* lines
(the fakes' test keys; notify URLs at the test shop). The steps run after the storefront's
purchase, at 1280 px, with the same buyer and address:
- Alipay's page flow: a new order, 支付宝付款 on the order card, the browser goes to the fake
  Alipay cashier (which has checked the shop's RSA2 signature), 付款 there, and back on the
  storefront's order page (`#/orders?order=ID&returned=1`) the order reads 已付款 — paid by the
  signed notification the fake posted, never by the return itself;
- WeChat Pay's Native flow: a new order, 微信支付 draws the QR code (qrcode-generator from
  /assets/vendor/), the control panel scans its code_url and pays, and the page, reading the
  order every two seconds, shows it 已付款.
"""

import json
import os
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

# Set by configure() from browser_test (which runs as __main__; see browser_admin.configure).
StepFailure = Exception
DESKTOP = None

ENABLED = os.environ.get("PAY_BROWSER_TEST", "1") != "0"
EXTRA_SECONDS = 60
FAKES = Path(__file__).resolve().parent.parent / ".build" / "debug" / "fake-payments"


def configure(*, step_failure, desktop):
    global StepFailure, DESKTOP
    StepFailure, DESKTOP = step_failure, desktop


class Fakes:
    """`fake-payments` on free ports, its control panel at `control`."""

    def __init__(self):
        self.process = None
        self.control = None

    def start(self, server, free_port):
        if not FAKES.exists():
            raise RuntimeError(f"{FAKES} is missing: run `swift build` first")
        ports = {name: free_port() for name in ("wechat-port", "alipay-port", "control-port")}
        env_file = server.workdir / "fake-payments.env"
        arguments = [str(FAKES), "--shop", server.base, "--env-file", str(env_file)]
        for name, port in ports.items():
            arguments += [f"--{name}", str(port)]
        self.log = open(server.workdir / "fake-payments.log", "w")
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.control = f"http://127.0.0.1:{ports['control-port']}"
        deadline = time.monotonic() + 15
        while not env_file.exists() or "ALIPAY_PRIVATE_KEY_PEM" not in env_file.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("fake-payments did not start: " + (server.workdir / "fake-payments.log").read_text()[-2000:])
            time.sleep(0.1)
        # `export NAME='value'` lines; the PEM values span lines inside their quotes
        text = env_file.read_text()
        for chunk in text.split("export ")[1:]:
            name, _, value = chunk.partition("=")
            server.env[name] = value.strip().strip("'")

    def scan(self, code_url):
        request = urllib.request.Request(self.control + "/wechatpay/scan", data=code_url.encode(), method="POST")
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.read().decode()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        if self.process:
            self.log.close()


FAKE_PAYMENTS = Fakes()


def start_fakes(server, free_port):
    if ENABLED:
        FAKE_PAYMENTS.start(server, free_port)


def stop_fakes():
    FAKE_PAYMENTS.stop()


class PaySteps:
    """The steps; `self` is browser_test.Run (find, click, wait, save…)."""

    def api(self, method, path, body=None, headers=None):
        token = self.d.execute_script("return localStorage.getItem('floral.token')")
        request = urllib.request.Request(self.server.base + "/api/v1" + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json",
                                                  **(headers or {})})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read().decode() or "null")

    def new_order(self):
        """One more order of the product seen earlier, placed as the app would (buy now, the default address)."""
        addresses = self.api("GET", "/addresses")["items"]
        product = self.api("GET", f"/products/{self.product_id}")
        sku = next(s for s in product["skus"] if s["stock"] > 0)
        order = self.api("POST", "/orders", {"address_id": addresses[0]["id"], "items": [{"sku_id": sku["id"], "quantity": 1}]},
                         headers={"Idempotency-Key": str(uuid.uuid4())})
        self.resize(DESKTOP)
        self.d.get(self.server.base + "/#/orders")
        card = f'#order-list .order-card[data-order-number="{order["number"]}"]'
        self.find(card + '[data-status="pending_payment"]')
        return order, card

    def see_paid_card(self, card, what):
        self.wait(lambda: self.find(card).get_attribute("data-status") == "paid", f"the {what} order to become paid", timeout=30)
        text = self.find(card).text
        if "已付款" not in text:
            raise StepFailure(f"the {what} order does not say 已付款: {text!r}")

    def pay_alipay_page(self):
        order, card = self.new_order()
        self.click(self.find(card + ' [data-action="pay-alipay"]'))
        self.wait(lambda: "/gateway.do?" in self.d.current_url and not self.d.current_url.startswith(self.server.base),
                  "the fake Alipay cashier")
        button = self.find("#pay")
        if order["number"] not in self.d.find_element("tag name", "body").text:
            raise StepFailure("the cashier does not show the order number")
        self.save("pay-alipay-cashier")
        self.click(button)
        self.wait(lambda: self.d.current_url.startswith(self.server.base) and "returned=1" in self.d.current_url,
                  "the way back to the storefront's order page")
        self.see_paid_card(card, "Alipay")

    def pay_wechat_native(self):
        order, card = self.new_order()
        self.click(self.find(card + ' [data-action="pay-wechatpay"]'))
        panel = self.find(card + " .pay-qr[data-code-url]")
        image = self.find(card + " .pay-qr img#wechat-qr")
        self.wait(lambda: self.d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image),
                  "the QR code drawn")
        code_url = panel.get_attribute("data-code-url")
        if not code_url.startswith("weixin://wxpay/bizpayurl"):
            raise StepFailure(f"the QR code holds {code_url!r}, not a WeChat Pay code_url")
        self.save("pay-wechat-qr")
        answer = FAKE_PAYMENTS.scan(code_url)
        if "HTTP 200" not in answer:
            raise StepFailure(f"the shop did not take WeChat's notification: {answer}")
        self.see_paid_card(card, "WeChat Pay")


STEPS = [
    ("pay on a computer through the fake Alipay cashier (page)", "pay_alipay_page"),
    ("pay on a computer by WeChat Pay's QR code (native), scanned on the control panel", "pay_wechat_native"),
]
