"""Delivery zones (issue 32) in the browser test: a step mixed into browser_test.Run (like browser_storefront).

An operator imports a two-zone file with `shop zones import` (北京朝阳 at ¥8 with a free-over amount
above the cart, 东莞 at ¥15 without same-day delivery). At checkout the buyer's default address
(林小花, 上海市 徐汇区, typed by hand: matched by its names, outside both zones) shows the refusal
before pay is pressed, and pay stays off; choosing 周小北's 北京市朝阳区 address shows the zone, its
fee, 再买 ¥X 免配送费 and the total with the fee. The zones are removed again at the end (an empty
file), so later steps check out as before.
"""

import json
import subprocess
import tempfile
from pathlib import Path

# Set by configure() from browser_test (it runs as __main__; importing it here would copy its classes).
StepFailure = Exception
SHOP = None

EXTRA_SECONDS = 40
# The API error answers the step provokes on purpose: an address outside every zone.
EXPECTED_API_ERRORS = [
    (r"/api/v1/delivery/quote\?.*", 422),
    (r"/api/v1/cart\?(.*&)?address_id=.*", 422),
]
FREE_OVER_MARGIN_CENTS = 5_000   # the free-over amount lies ¥50 above the cart: the hint says 再买 ¥50.00


def configure(*, step_failure, shop):
    global StepFailure, SHOP
    StepFailure, SHOP = step_failure, shop


def yuan(cents):
    return f"¥{cents // 100}.{cents % 100:02d}"


class ZoneSteps:
    """The step; `self` is browser_test.Run (with browser_storefront.Storefront's call/expect_call)."""

    def import_zones(self, zones):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as file:
            json.dump({"zones": zones}, file, ensure_ascii=False)
        try:
            result = subprocess.run([str(SHOP), "zones", "import", file.name], cwd=SHOP.parents[2], env=self.server.env,
                                    capture_output=True, text=True, timeout=90)
        finally:
            Path(file.name).unlink(missing_ok=True)
        if result.returncode != 0:
            raise StepFailure(f"shop zones import: {result.stdout}{result.stderr}")
        return result.stdout

    def delivery_zones(self):
        token = self.buyer_token()
        product = self.expect_call(200, "GET", f"/products/{self.product_id}")
        sku = next(s for s in product["skus"] if s["stock"] > 0)
        self.expect_call(201, "POST", "/cart/items", {"sku_id": sku["id"], "quantity": 1}, token)
        goods = sku["price_cents"]
        output = self.import_zones([
            {"name": "北京朝阳", "region_codes": ["110105"], "fee_cents": 800,
             "free_over_cents": goods + FREE_OVER_MARGIN_CENTS, "same_day": True},
            {"name": "东莞", "region_codes": ["441900"], "fee_cents": 1500, "same_day": False},
        ])
        if "2 delivery zones imported" not in output and "已导入 2 个配送区域" not in output:
            raise StepFailure(f"shop zones import said {output!r}")
        try:
            self.d.get(self.server.base + "/#/checkout")   # the step before may have left the storefront (the docs page)
            self.find("body.ready")
            self.find("#checkout-addresses input[type=radio]:checked")
            default = self.find("#checkout-addresses .address-choice input:checked").find_element("xpath", "..")
            if "林小花" not in default.text:
                raise StepFailure(f"the default address at checkout is {default.text!r}")
            # 上海市 徐汇区, typed by hand: outside both zones, said before pay is pressed
            self.wait(lambda: "这个地址不在本店的配送范围内" in self.text("#delivery-unavailable"), "the out-of-zone message")
            if self.find("#place-order", visible=False).is_enabled():
                raise StepFailure("pay is on for an address outside every zone")
            self.save("zones-outside")
            # 周小北, 北京市朝阳区 (by region code): the zone's fee, the hint and the total with the fee
            beijing = next(c for c in self.all("#checkout-addresses .address-choice") if "周小北" in c.text)
            self.click(beijing.find_element("css selector", "input"))
            self.wait(lambda: "北京朝阳" in self.text("#delivery-fee"), "the zone 北京朝阳 at checkout")
            fee = self.text("#delivery-fee")
            if "配送费 ¥8.00" not in fee:
                raise StepFailure(f"the fee reads {fee!r}")
            hint = self.text("#free-delivery-hint")
            if hint != f"再买 {yuan(FREE_OVER_MARGIN_CENTS)} 免配送费":
                raise StepFailure(f"the free-delivery hint reads {hint!r}")
            total = self.text("#checkout-total")
            if total != yuan(goods + 800):
                raise StepFailure(f"the total reads {total!r}, not {yuan(goods + 800)}")
            if self.all("#delivery-unavailable"):
                raise StepFailure("the out-of-zone message stays for an address inside a zone")
            self.wait(lambda: self.find("#place-order").is_enabled(), "pay to be on again")
            self.save("zones-fee")
        finally:
            self.import_zones([])
            self.expect_call(200, "DELETE", "/cart", None, token)
