"""The storefront of issue 31 in the browser test: steps mixed into browser_test.Run (like browser_admin).

What a tester found missing, each checked in the page, on a phone and at 1280 px, in Chinese and English:
- every order status labelled (退款中/已退款 too) and each under a tab (全部/待付款/待发货/配送中/已送达/
  已完成/退款·售后/已取消), the tab lists only its statuses;
- cancelling asks first, in a dialog of the page (再想想 keeps the order); 申请退款 on a paid order;
- 申请售后 on a delivered order with a photo uploaded through POST /media, sent, and shown on the order;
- the delivery day said as 今天 / 明天 / 周三 12月3日 (Today / Tomorrow / Wed 3 Dec) in the shop's time zone;
- the 99-item message with the shop's customer-service contact from GET /shop-info;
- the product gallery's arrows, thumbnails and ←/→ keys on a desktop, and swiping on a phone.
The orders in each status are made through the API (the buyer's own token, the development payment
route, and a florist of this module's own for shipping and delivering).
"""

import datetime
import json
import re
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

# Set by configure() from browser_test (it runs as __main__; importing it here would copy its classes).
StepFailure = Exception
SHOP = None
PHONE = DESKTOP = None
PRODUCT_TITLE = None
make_driver = None


def configure(*, step_failure, shop, phone, desktop, product_title, driver_factory):
    global StepFailure, SHOP, PHONE, DESKTOP, PRODUCT_TITLE, make_driver
    StepFailure, SHOP, PHONE, DESKTOP, PRODUCT_TITLE, make_driver = step_failure, shop, phone, desktop, product_title, driver_factory


SERVICE_CONTACT = "微信 floral-kefu · 400-820-1314"   # SHOP_APP_SERVICE_CONTACT of the test shop
SHOP_ZONE = ZoneInfo("Asia/Shanghai")                  # app.timezone's default: the days of /delivery/dates
FLORIST = ("sf-florist", "florist-pass-2031")
EXTRA_SECONDS = 150
# The API error answers these steps provoke on purpose (see browser_test.EXPECTED_API_ERRORS).
EXPECTED_API_ERRORS = [
    (r"/api/v1/orders/\d+/after-sales", 409),   # after_sale_open: a second request for one order
]

STATUS_ZH = {"pending_payment": "待付款", "paid": "已付款", "shipped": "已发货", "delivered": "已送达", "completed": "已完成",
             "cancelled": "已取消", "refunding": "退款中", "refunded": "已退款"}
STATUS_EN = {"pending_payment": "Awaiting payment", "paid": "Paid", "shipped": "Shipped", "delivered": "Delivered",
             "completed": "Completed", "cancelled": "Cancelled", "refunding": "Refunding", "refunded": "Refunded"}
# tab → (zh label, en label, statuses it lists; empty: every one)
TABS = {
    "all": ("全部", "All", []), "pending_payment": ("待付款", "To pay", ["pending_payment"]),
    "paid": ("待发货", "To ship", ["paid"]), "shipped": ("配送中", "On the way", ["shipped"]),
    "delivered": ("已送达", "Delivered", ["delivered"]), "completed": ("已完成", "Completed", ["completed"]),
    "refund": ("退款·售后", "Refunds & after-sale", ["refunding", "refunded"]), "cancelled": ("已取消", "Cancelled", ["cancelled"]),
}
WEEKDAYS_ZH = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
WEEKDAYS_EN = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def day_words(day, lang):
    """What the picker must say for `day` (YYYY-MM-DD): 今天 / 明天 / 周三 12月3日, or in English."""
    date = datetime.date.fromisoformat(day)
    today = datetime.datetime.now(SHOP_ZONE).date()
    if date == today:
        return "今天" if lang == "zh" else "Today"
    if date == today + datetime.timedelta(days=1):
        return "明天" if lang == "zh" else "Tomorrow"
    if lang == "zh":
        return f"{WEEKDAYS_ZH[date.weekday()]} {date.month}月{date.day}日"
    return f"{WEEKDAYS_EN[date.weekday()]} {date.day} {MONTHS_EN[date.month - 1]}"


class Storefront:
    """The steps; `self` is browser_test.Run (find, click, type, wait, save, server, d…)."""

    sf_florist_token = None

    # ---- the API, as the buyer or the florist ----
    def call(self, method, path, body=None, token=None, headers=None, language="zh"):
        """(status, JSON body) of one API call; error answers are returned, not raised."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.server.base + "/api/v1" + path, data=data, method=method)
        request.add_header("Accept-Language", language)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=15) as answer:
                text = answer.read().decode()
                return answer.status, json.loads(text) if text else None
        except urllib.error.HTTPError as answer:
            text = answer.read().decode()
            return answer.code, json.loads(text) if text else None

    def expect_call(self, status, method, path, body=None, token=None, **options):
        code, answer = self.call(method, path, body, token, **options)
        if code != status:
            raise StepFailure(f"{method} {path} answered {code} {answer}, expected {status}")
        return answer

    def buyer_token(self):
        token = self.d.execute_script("return localStorage.getItem('floral.token')")
        if not token:
            raise StepFailure("the buyer is not signed in")
        return token

    def florist_token(self):
        if not Storefront.sf_florist_token:
            username, password = FLORIST
            result = subprocess.run([str(SHOP), "staff", "add", username, "--role", "florist", "--password-stdin"],
                                    input=password + "\n", cwd=SHOP.parents[2], env=self.server.env,
                                    capture_output=True, text=True, timeout=90)
            if result.returncode != 0:
                raise StepFailure(f"shop staff add {username}: {result.stdout}{result.stderr}")
            answer = self.expect_call(200, "POST", "/admin/auth/login", {"username": username, "password": password})
            Storefront.sf_florist_token = answer["token"]
        return Storefront.sf_florist_token

    def place_order(self, token):
        """A "buy now" order of one 11枝 of the product, to the buyer's default address."""
        product = self.expect_call(200, "GET", f"/products/{self.product_id}")
        sku = next(s["id"] for s in product["skus"] if s["stock"] > 0)
        address = self.expect_call(200, "GET", "/addresses", token=token)["items"][0]["id"]
        return self.expect_call(201, "POST", "/orders", {"address_id": address, "items": [{"sku_id": sku, "quantity": 1}]},
                                token=token, headers={"Idempotency-Key": str(uuid.uuid4())})

    def order_in(self, status, token):
        """A new order of the buyer's brought to `status` the way it happens: paid by the development
        payment route, shipped and delivered by the florist, received, or cancelled by the buyer."""
        order = self.place_order(token)
        oid, number = order["id"], order["number"]
        if status == "cancelled":
            self.expect_call(200, "POST", f"/orders/{oid}/cancel", token=token)
        if status in ("paid", "shipped", "delivered", "completed", "refunding"):
            self.expect_call(201, "POST", f"/orders/{oid}/payments", {"provider": "mockpay"}, token=token)
            paid = self.expect_call(200, "POST", f"/dev/orders/{oid}/simulate-payment", {"status": "succeeded"}, token=token)
            if paid.get("order_status") != "paid":
                raise StepFailure(f"the development payment left order {number} {paid}")
        if status == "refunding":
            self.expect_call(200, "POST", f"/orders/{oid}/cancel", token=token)
        if status in ("shipped", "delivered", "completed"):
            self.expect_call(200, "POST", f"/admin/orders/{number}/ship", {}, token=self.florist_token())
        if status in ("delivered", "completed"):
            self.expect_call(200, "POST", f"/admin/orders/{number}/deliver", {}, token=self.florist_token())
        if status == "completed":
            self.expect_call(200, "POST", f"/orders/{oid}/confirm-receipt", token=token)
        return self.expect_call(200, "GET", f"/orders/{oid}", token=token)

    # ---- the page ----
    def orders_tab(self, tab):
        self.click(f'#order-status [data-status="{tab}"]')
        self.find(f'#order-status [data-status="{tab}"].active')
        self.wait(lambda: not self.all("#order-list .loading"), f"the {tab} orders")

    def order_card(self, order):
        return self.find(f'#order-list .order-card[data-order-id="{order["id"]}"]')

    def notice_contact(self, css, label):
        box = self.find(css)
        self.wait(lambda: any(s.text == f"{label}{SERVICE_CONTACT}" for s in box.find_elements(By.CSS_SELECTOR, ".service-contact")),
                  f"{label}{SERVICE_CONTACT} beside the cap message")

    # ---- steps ----
    def cap_contact(self):
        """Beside the 99-item message (the API's own words, unchanged): 联系客服 and the shop's contact."""
        self.notice_contact("#cart-notice", "联系客服：")
        if not self.text("#cart-notice").startswith("亲，企业采购请联系我们客服"):
            raise StepFailure(f"the cap message changed: {self.text('#cart-notice')!r}")
        info = self.expect_call(200, "GET", "/shop-info")
        if info["service_contact"] != SERVICE_CONTACT or not info["name"]:
            raise StepFailure(f"GET /shop-info answered {info}")

    def day_picker(self):
        """On the checkout page: chips for the first days, 今天 / 明天 / 周三 12月3日 in the shop's zone,
        later days in a select with the same words; no bare dates. The second day is chosen."""
        chips = self.wait(lambda: self.all("#delivery-days .day-chip"), "the delivery day chips")
        if not 1 <= len(chips) <= 4:
            raise StepFailure(f"{len(chips)} day chips")
        for chip in chips:
            day, label = chip.get_attribute("data-date"), chip.find_element(By.CSS_SELECTOR, ".day-label").text
            if label != day_words(day, "zh"):
                raise StepFailure(f"the chip for {day} says {label!r}, expected {day_words(day, 'zh')!r}")
        options = [o for o in self.d.find_elements(By.CSS_SELECTOR, "#delivery-date-more option") if o.get_attribute("value")]
        for option in options:
            if option.text != day_words(option.get_attribute("value"), "zh"):
                raise StepFailure(f"the later day {option.get_attribute('value')} says {option.text!r}")
        if any(re.search(r"\d{4}-\d{2}-\d{2}", el.text) for el in chips + options):
            raise StepFailure("a day is shown as a bare date")
        if chips[0].get_attribute("aria-checked") != "true":
            raise StepFailure("the earliest day is not chosen at first")
        chosen = chips[1] if len(chips) > 1 else chips[0]
        self.click(chosen)
        self.wait(lambda: chosen.get_attribute("aria-checked") == "true", "the second day chosen")
        self.delivery_day = chosen.get_attribute("data-date")
        if options:
            later = options[-1].get_attribute("value")
            self.d.execute_script("const s = document.getElementById('delivery-date-more'); s.value = arguments[0];"
                                  "s.dispatchEvent(new Event('change'))", later)
            self.wait(lambda: not [c for c in self.all("#delivery-days .day-chip") if c.get_attribute("aria-checked") == "true"],
                      "a later day chosen from the select")
            self.save("checkout-later-day")
            self.click(chosen)
        self.wait(lambda: chosen.get_attribute("aria-checked") == "true", "the second day chosen again")

    def order_tabs(self):
        """Orders in every status, each labelled in Chinese and listed under its tab, and only there."""
        token = self.buyer_token()
        self.sf_orders = {status: self.order_in(status, token)
                          for status in ("pending_payment", "paid", "shipped", "delivered", "completed", "cancelled", "refunding")}
        covered = {s for _, _, statuses in TABS.values() for s in statuses}
        if covered != set(STATUS_ZH):
            raise StepFailure(f"statuses under no tab: {set(STATUS_ZH) - covered}")
        self.d.get(self.server.base + "/#/orders")
        self.find("body.ready")
        labels = [el.text for el in self.all("#order-status .chip")]
        if labels != [zh for zh, _, _ in TABS.values()]:
            raise StepFailure(f"the tabs read {labels}")
        for tab, (_, _, statuses) in TABS.items():
            self.orders_tab(tab)
            cards = self.all("#order-list .order-card")
            for card in cards:
                status = card.get_attribute("data-status")
                if statuses and status not in statuses:
                    raise StepFailure(f"the {tab} tab lists a {status} order")
                label = card.find_element(By.CSS_SELECTOR, ".order-head .status").text
                if label != STATUS_ZH[status]:
                    raise StepFailure(f"a {status} order is labelled {label!r}")
            wanted = [o for o in self.sf_orders.values() if not statuses or o["status"] in statuses]
            shown = {c.get_attribute("data-order-id") for c in cards}
            missing = [o["number"] for o in wanted if str(o["id"]) not in shown and (statuses or len(cards) < 10)]
            if missing:
                raise StepFailure(f"the {tab} tab does not list {missing}")
            self.save(f"orders-tab-{tab}")

    def cancel_confirmation(self):
        """取消订单 asks in a dialog of the page: 再想想 keeps the order, 确认取消 cancels it."""
        order = self.sf_orders["pending_payment"]
        self.orders_tab("pending_payment")
        self.click(self.order_card(order).find_element(By.CSS_SELECTOR, '[data-action="cancel"]'))
        dialog = self.find("dialog#confirm-dialog")
        if not self.d.execute_script("return arguments[0].open && arguments[0].matches(':modal')", dialog) or "取消这个订单" not in dialog.text:
            raise StepFailure(f"no modal dialog asks first: {dialog.text!r}")
        self.save("cancel-confirmation")
        self.click("#confirm-dialog-no")
        self.wait(lambda: not self.all("dialog#confirm-dialog"), "the dialog closed by 再想想")
        if self.expect_call(200, "GET", f"/orders/{order['id']}", token=self.buyer_token())["status"] != "pending_payment":
            raise StepFailure("再想想 cancelled the order")
        self.click(self.order_card(order).find_element(By.CSS_SELECTOR, '[data-action="cancel"]'))
        self.click("#confirm-dialog-yes")
        self.wait(lambda: self.order_card(order).get_attribute("data-status") == "cancelled", "the order cancelled after 确认取消")
        if self.order_card(order).find_element(By.CSS_SELECTOR, ".status").text != "已取消":
            raise StepFailure("the cancelled order is not labelled 已取消")

    def refund_paid(self):
        """申请退款 on a paid, unshipped order: confirmed, then 退款中 (or 已退款) under 退款·售后."""
        order = self.sf_orders["paid"]
        self.orders_tab("paid")
        button = self.order_card(order).find_element(By.CSS_SELECTOR, '[data-action="refund"]')
        if button.text != "申请退款":
            raise StepFailure(f"the paid order offers {button.text!r}")
        self.click(button)
        dialog = self.find("dialog#confirm-dialog")
        if "申请退款" not in dialog.text:
            raise StepFailure(f"the refund dialog reads {dialog.text!r}")
        self.click("#confirm-dialog-yes")
        self.wait(lambda: self.order_card(order).get_attribute("data-status") in ("refunding", "refunded"), "the order refunding")
        self.orders_tab("refund")
        card = self.order_card(order)
        if card.find_element(By.CSS_SELECTOR, ".status").text not in ("退款中", "已退款"):
            raise StepFailure(f"the refunded order reads {card.text!r}")

    def after_sale(self):
        """申请售后 on a delivered order: refund or 补送, a reason, a photo uploaded from the form; sent
        when the after-sale API exists, then its status, amount and photo on the order."""
        token = self.buyer_token()
        code, answer = self.call("POST", "/orders/999999999/after-sales", {"kind": "refund", "reason": "x", "photo_urls": []},
                                 token=token, language="en")
        present = not (code == 404 and str((answer or {}).get("error", {}).get("message", "")).startswith("No route"))
        order = self.sf_orders["delivered"]
        self.orders_tab("delivered")
        card = self.order_card(order)
        self.click(card.find_element(By.CSS_SELECTOR, '[data-action="after-sale"]'))
        form = self.find(f'.after-sale-form[data-order-id="{order["id"]}"]')
        kinds = [el.text for el in form.find_elements(By.CSS_SELECTOR, ".as-kind")]
        if kinds != ["退款", "补送"]:
            raise StepFailure(f"the kinds read {kinds}")
        amount = form.find_element(By.CSS_SELECTOR, ".as-amount").get_attribute("value")
        refundable = order["total_cents"] - order.get("refunded_cents", 0)
        if amount != f"{refundable // 100}.{refundable % 100:02d}":
            raise StepFailure(f"the refund amount starts at {amount}, not what is refundable ({refundable} cents)")
        self.click(form.find_element(By.CSS_SELECTOR, ".as-submit"))
        self.wait(lambda: "请描述遇到的问题" in form.find_element(By.CSS_SELECTOR, ".as-error").text, "the reason asked for")
        reason = form.find_element(By.CSS_SELECTOR, ".as-reason")
        reason.send_keys("花送到时已经蔫了，花瓣发黑")
        # A photo from the phone's album: the file input, made visible for the driver.
        photo_path = self.server.workdir / "wilted.jpg"
        from photos import photo
        photo(str(photo_path), 1200, 900, seed=31)
        picker = form.find_element(By.CSS_SELECTOR, ".as-file")
        self.d.execute_script("arguments[0].hidden = false", picker)
        picker.send_keys(str(photo_path))
        self.d.execute_script("arguments[0].hidden = true", picker)
        self.wait(lambda: [p for p in form.find_elements(By.CSS_SELECTOR, ".as-photo .pic")
                           if "loaded" in p.get_attribute("class") and "/media/" in p.value_of_css_property("background-image")],
                  "the uploaded photo's thumbnail in the form")
        self.save("after-sale-form")
        if not present:
            raise StepFailure("POST /orders/{id}/after-sales has no route on this server")
        # One open request per order: the server's own words, in Chinese, when another is open.
        other = self.sf_orders["completed"]
        self.orders_tab("completed")
        self.click(self.order_card(other).find_element(By.CSS_SELECTOR, '[data-action="after-sale"]'))
        other_form = self.find(f'.after-sale-form[data-order-id="{other["id"]}"]')
        other_form.find_element(By.CSS_SELECTOR, ".as-reason").send_keys("少了一枝")
        self.expect_call(201, "POST", f"/orders/{other['id']}/after-sales", {"kind": "redeliver", "reason": "少了一枝", "photo_urls": []},
                         token=token)
        self.click(other_form.find_element(By.CSS_SELECTOR, ".as-submit"))
        self.wait(lambda: re.search(r"[\u4e00-\u9fff]", other_form.find_element(By.CSS_SELECTOR, ".as-error").text),
                  "after_sale_open in Chinese")
        # The delivered order's request, with its photo.
        self.orders_tab("delivered")
        card = self.order_card(order)
        self.click(card.find_element(By.CSS_SELECTOR, '[data-action="after-sale"]'))
        form = self.find(f'.after-sale-form[data-order-id="{order["id"]}"]')
        form.find_element(By.CSS_SELECTOR, ".as-reason").send_keys("花送到时已经蔫了，花瓣发黑")
        picker = form.find_element(By.CSS_SELECTOR, ".as-file")
        self.d.execute_script("arguments[0].hidden = false", picker)
        picker.send_keys(str(photo_path))
        self.wait(lambda: form.find_elements(By.CSS_SELECTOR, ".as-photo .pic.loaded"), "the photo uploaded again")
        self.click(form.find_element(By.CSS_SELECTOR, ".as-submit"))
        info = self.wait(lambda: next(iter(self.order_card(order).find_elements(By.CSS_SELECTOR, ".after-sale-info")), None),
                         "the after-sale request on the order")
        if "售后（退款）" not in info.text or "处理中" not in info.text or not info.find_elements(By.CSS_SELECTOR, ".as-photo"):
            raise StepFailure(f"the request reads {info.text!r}")
        shown = self.expect_call(200, "GET", f"/orders/{order['id']}", token=token)
        sent = shown["after_sale"]
        if sent["kind"] != "refund" or sent["amount_cents"] != refundable or len(sent["photo_urls"]) != 1:
            raise StepFailure(f"the request sent was {sent}")
        # the recipient's page, for the buyer to send on: the order's tracking_url
        link = self.wait(lambda: next(iter(self.order_card(order).find_elements(By.CSS_SELECTOR, ".tracking-line a")), None),
                         "the recipient's page link on the delivered order")
        if not shown.get("tracking_url") or link.get_attribute("href") != shown["tracking_url"] or "收花人" not in link.text:
            raise StepFailure(f"the link reads {link.text!r} to {link.get_attribute('href')}, not {shown.get('tracking_url')}")

    def desktop_gallery(self):
        """At 1280 px: ‹ › arrows, a thumbnail strip of the API's thumbnail URLs, and ←/→ reach every picture."""
        self.find("#gallery")
        product = self.expect_call(200, "GET", f"/products/{self.product_id}")
        urls = list(dict.fromkeys([product["cover_url"], *product["images"]]))
        thumbs = dict(zip(product["images"], product["image_thumbnail_urls"]))
        thumbs[product["cover_url"]] = product["cover_thumbnail_url"]
        if len(urls) < 2:
            raise StepFailure(f"{PRODUCT_TITLE} has {len(urls)} pictures")
        buttons = self.wait(lambda: self.all("#gallery-thumbs .gallery-thumb"), "the thumbnails")
        if len(buttons) != len(urls):
            raise StepFailure(f"{len(buttons)} thumbnails for {len(urls)} pictures")
        self.pictures_loaded("#gallery-thumbs .pic")
        for button, url in zip(buttons, urls):
            shown = button.find_element(By.CSS_SELECTOR, ".pic").value_of_css_property("background-image")
            if thumbs[url] not in shown:
                raise StepFailure(f"a thumbnail shows {shown}, not {thumbs[url]}")
        count = lambda: self.text("#gallery-count")
        active = lambda: [b.get_attribute("data-index") for b in self.all("#gallery-thumbs .gallery-thumb.active")]
        at = lambda n: self.wait(lambda: count() == f"{n}/{len(urls)}" and active() == [str(n - 1)] and abs(
            self.d.execute_script("const g = document.getElementById('gallery'); return g.scrollLeft - (arguments[0] - 1) * g.clientWidth", n)) < 2,
            f"picture {n} shown")
        for css in (".gallery-prev", ".gallery-next"):
            if not self.uncovered(self.find(css)):
                raise StepFailure(f"the arrow {css} is covered")
        at(1)
        self.click(".gallery-next")
        at(2)
        self.save("gallery-next")
        self.click(".gallery-prev")
        at(1)
        self.click(buttons[1])
        at(2)
        ActionChains(self.d).send_keys(Keys.ARROW_LEFT).perform()
        at(1)
        ActionChains(self.d).send_keys(Keys.ARROW_RIGHT).perform()
        at(2)

    def desktop_orders(self):
        """The orders page at 1280 px: every tab in one row on screen, each order labelled, 退款·售后 listing its orders."""
        self.d.execute_script("location.hash = '#/orders'")
        self.find("#order-list .order-card")
        chips = self.all("#order-status .chip")
        if [c.text for c in chips] != [zh for zh, _, _ in TABS.values()] or len({round(self.rect(c)["top"]) for c in chips}) != 1:
            raise StepFailure("the tabs are not one row of the eight")
        if not all(self.uncovered(c) and self.rect(c)["right"] <= self.viewport()["width"] for c in chips):
            raise StepFailure("a tab is off screen at 1280 px")
        self.orders_tab("refund")
        cards = self.all("#order-list .order-card")
        if not cards or any(c.get_attribute("data-status") not in ("refunding", "refunded") for c in cards):
            raise StepFailure("退款·售后 at 1280 px lists other orders")
        self.orders_tab("all")

    def phone_gallery(self):
        """On a phone the pictures still swipe (the strip scrolls and snaps); the counter and thumbnails follow."""
        self.d.execute_script(f"location.hash = '#/product/{self.product_id}'")
        gallery = self.find("#gallery")
        self.wait(lambda: self.text("#gallery-count").startswith("1/"), "the first picture")
        self.d.execute_script("arguments[0].scrollBy({left: arguments[0].clientWidth * 0.7})", gallery)
        self.wait(lambda: self.text("#gallery-count").startswith("2/") and abs(self.d.execute_script(
            "return arguments[0].scrollLeft - arguments[0].clientWidth", gallery)) < 2, "the swipe to snap to picture 2")
        if [b.get_attribute("data-index") for b in self.all("#gallery-thumbs .gallery-thumb.active")] != ["1"]:
            raise StepFailure("the thumbnails do not follow the swipe")

    def english_storefront(self):
        """A browser set to English, signed in as the same buyer: tabs, statuses, the cancel dialog, the
        days (Today / Tomorrow / Wed 3 Dec) and the cap message's contact, all in English."""
        token = self.buyer_token()
        pending = self.order_in("pending_payment", token)
        driver = make_driver("en-US")
        try:
            page = type(self)(driver, self.server, self.shots)
            page.product_id = self.product_id
            driver.get(self.server.base + "/")
            page.find("body.ready")
            driver.execute_script("localStorage.setItem('floral.token', arguments[0]); location.hash = '#/orders'; location.reload()", token)
            page.find("body.ready")
            page.find("#order-list .order-card")
            labels = [el.text for el in page.all("#order-status .chip")]
            if labels != [en for _, en, _ in TABS.values()]:
                raise StepFailure(f"the English tabs read {labels}")
            for card in page.all("#order-list .order-card"):
                status, label = card.get_attribute("data-status"), card.find_element(By.CSS_SELECTOR, ".status").text
                if label != STATUS_EN[status]:
                    raise StepFailure(f"a {status} order reads {label!r} in English")
            page.click(page.order_card(pending).find_element(By.CSS_SELECTOR, '[data-action="cancel"]'))
            dialog = page.find("dialog#confirm-dialog")
            if "Cancel this order?" not in dialog.text or page.text("#confirm-dialog-no") != "Keep it":
                raise StepFailure(f"the English dialog reads {dialog.text!r}")
            driver.save_screenshot(str(self.shots / "english-cancel-dialog.png"))
            page.click("#confirm-dialog-no")
            # The day picker, in English words.
            product = self.expect_call(200, "GET", f"/products/{self.product_id}")
            sku = next(s["id"] for s in product["skus"] if s["stock"] > 0)
            self.expect_call(201, "POST", "/cart/items", {"sku_id": sku, "quantity": 1}, token=token)
            driver.execute_script("location.hash = '#/checkout'")
            chips = page.wait(lambda: page.all("#delivery-days .day-chip"), "the English day chips")
            for chip in chips:
                day, label = chip.get_attribute("data-date"), chip.find_element(By.CSS_SELECTOR, ".day-label").text
                if label != day_words(day, "en"):
                    raise StepFailure(f"the chip for {day} says {label!r}, expected {day_words(day, 'en')!r}")
            driver.save_screenshot(str(self.shots / "english-day-picker.png"))
            # The cap, with the contact in English.
            line = self.expect_call(200, "GET", "/cart", token=token)["items"][0]["id"]
            self.expect_call(200, "PATCH", f"/cart/items/{line}", {"quantity": 99}, token=token)
            driver.execute_script("location.hash = '#/cart'")
            page.click(".cart-line .step.plus")
            page.notice_contact("#cart-notice", "Customer service: ")
            driver.save_screenshot(str(self.shots / "english-cap-contact.png"))
        finally:
            driver.quit()
            self.call("DELETE", "/cart", token=token)
            self.call("POST", f"/orders/{pending['id']}/cancel", token=token)


STEPS_AFTER_PAID = [
    ("orders in every status, labelled, each under its tab", "order_tabs"),
    ("cancelling asks first, in a dialog of the page", "cancel_confirmation"),
    ("申请退款 on a paid order, confirmed", "refund_paid"),
    ("申请售后 on a delivered order with a photo", "after_sale"),
]
