"""The operators' desk (`/admin`, issue 30) in the browser test: steps mixed into browser_test.Run.

On by default (ADMIN_BROWSER_TEST=0 leaves them out); every step below runs, none is skipped. They run after
the storefront's steps, on the same shop: its buyer, their paid order and the product they saw.

Four staff accounts are made with `shop staff add NAME --role ROLE --password-stdin` against
the test server's database, then each signs in at /admin in a fresh tab session and does one
day's task (issue 30's "done when"):
- the owner sees every menu entry and today's sales on the dashboard, edits a SKU's price in
  place (the storefront's API shows the new price at once) and finds that edit in the audit log;
- a manager takes one product off sale from the products screen (a buyer then gets 404 for it)
  and one SKU of another product with its row's button (the product stays, without that SKU);
- the florist sees only their entries (no staff, coupons or buyers), finds the buyer's paid order
  by number and ships it with a carrier and tracking number (the timeline says shipped);
- customer service opens the after-sale queue, where the buyer's refund request about that shipped
  order waits with its photo as a thumbnail (the buyer asked through the API: a photo uploaded
  with POST /media, then POST /orders/{id}/after-sales), approves it for a smaller amount, and the
  buyer's order shows the request approved with its refund opened;
- the florist, on a phone, marks that order delivered with a photo chosen in the page (uploaded
  to /media; the order's delivery_photo_url is that shop picture, shown in the timeline);
- a manager refunds part of it from the order detail (the dialog, then its confirmation): the
  refund is in the order's refunds, its timeline and the audit log;
- the buyer posts a spam comment (through the API), customer service finds it on the comments
  screen and deletes it, and buyers no longer see it;
- customer service finds the buyer by phone and bans them with a reason, after which the buyer's
  own token is refused (401);
- at phone size the side menu folds behind ☰ and opens on a tap;
- the owner reads today's sales on the dashboard (the same figures as GET /admin/reports/sales
  for today) and finds each of those actions in the audit screen with who did it.
Each step saves a screenshot like the storefront's steps.
"""

import re
import json
import os
import subprocess
import time
from datetime import datetime, timedelta, timezone
import urllib.error
import urllib.request

from selenium.webdriver.common.keys import Keys

# Set by configure() from browser_test: the run's own failure type, binary and sizes (browser_test
# runs as __main__, so importing it from here would make a second copy with other classes).
StepFailure = Exception
SHOP = None
PHONE = DESKTOP = None
PRODUCT_TITLE = None


def configure(*, step_failure, shop, phone, desktop, product_title):
    global StepFailure, SHOP, PHONE, DESKTOP, PRODUCT_TITLE
    StepFailure, SHOP, PHONE, DESKTOP, PRODUCT_TITLE = step_failure, shop, phone, desktop, product_title

ENABLED = os.environ.get("ADMIN_BROWSER_TEST", "1") != "0"
EXTRA_SECONDS = 330          # added to the run's time limit when these steps are on

# username → (role, password); passwords are 10+ characters as `shop staff` requires.
STAFF = {
    "desk-owner": ("owner", "owner-pass-2026"),
    "desk-manager": ("manager", "manager-pass-2026"),
    "desk-florist": ("florist", "florist-pass-2026"),
    "desk-service": ("service", "service-pass-2026"),
}
NEW_PRICE = "288.00"
NEW_PRICE_CENTS = 28800
CARRIER, TRACKING = "顺丰速运", "SF1234567890"
BAN_REASON = "发布广告，多次提醒无效"
AFTER_SALE_REASON = "花瓣边缘发黑，有两枝已经蔫了"
AFTER_SALE_ASKED, AFTER_SALE_APPROVED = 3000, 2000   # cents: what the buyer asks, what the desk gives back
OFF_SALE_TITLE = "白百合康乃馨慰问花束"                    # a demo product the manager takes off sale
SKU_OFF_TITLE, SKU_OFF_NAME = "向日葵花束·向阳而生", "9枝"   # a demo product whose one SKU goes off sale
PART_REFUND, PART_REFUND_CENTS = "15", 1500                # the manager's partial refund, yuan and cents
PART_REFUND_REASON = "少送了两枝，退部分货款"
SPAM_COMMENT = "全场一折清仓，点我主页领红包 8888"         # none of search.blocked_words, so it is posted
SHOP_ZONE = timezone(timedelta(hours=8))                   # Asia/Shanghai: China keeps no summer time


def create_staff(server):
    """Each account through the CLI, the way an owner sets up a new shop's desk (the server's
    environment names its database; the working directory is the repository's, as for `shop seed`)."""
    for username, (role, password) in STAFF.items():
        result = subprocess.run([str(SHOP), "staff", "add", username, "--role", role, "--password-stdin"],
                                input=password + "\n", cwd=SHOP.parents[2], env=server.env,
                                capture_output=True, text=True, timeout=90)
        if result.returncode != 0:
            raise RuntimeError(f"shop staff add {username} failed ({result.returncode}): {result.stdout}{result.stderr}")


class AdminDesk:
    """The desk's steps; `self` is browser_test.Run (find, click, type, wait, save…)."""

    staff_created = False

    def desk_sign_in(self, username):
        """A fresh tab session (the token lives in sessionStorage), then the sign-in form."""
        if not AdminDesk.staff_created:
            create_staff(self.server)
            AdminDesk.staff_created = True
        self.d.get(self.server.base + "/admin")
        self.d.execute_script("sessionStorage.clear(); history.replaceState(null, '', '/admin#/dashboard'); location.reload()")
        self.find("#login-username")
        role, password = STAFF[username]
        self.type("#login-username", username)
        self.type("#login-password", password)
        self.click("#login-submit")
        # #who is folded away on a phone (the side menu names who is signed in there): read it hidden too.
        self.wait(lambda: username in (self.find("#who", visible=False).get_attribute("textContent") or ""), f"{username} signed in")
        token = self.d.execute_script("return sessionStorage.getItem('floral.admin.token')")
        if not token or self.d.execute_script("return localStorage.getItem('floral.admin.token')"):
            raise StepFailure("the staff token is not kept in sessionStorage only")
        return token

    def menu(self):
        return {el.get_attribute("id")[len("nav-"):] for el in self.all("#side-menu .menu-item")}

    def expect_menu(self, present, absent):
        entries = self.menu()
        if not set(present) <= entries or entries & set(absent):
            raise StepFailure(f"the menu shows {sorted(entries)}; expected {sorted(present)} and none of {sorted(absent)}")

    def desk_owner_edits_a_price(self):
        """The owner: every entry, today's sales, a price edited in place and found in the audit log."""
        self.resize(DESKTOP)
        self.desk_sign_in("desk-owner")
        self.expect_menu(["dashboard", "products", "orders", "after-sales", "coupons", "buyers", "comments", "staff", "audit"], [])
        orders_today = self.find("#today-orders .stat-value")
        self.wait(lambda: orders_today.text.isdigit() and int(orders_today.text) >= 1, "today's paid order on the dashboard")
        if not self.text("#today-sales .stat-value").startswith("¥"):
            raise StepFailure("today's sales are not shown in yuan")
        self.save("desk-owner-dashboard")
        self.click("#nav-products")
        self.type("#product-q", PRODUCT_TITLE)
        self.click("#product-search")
        card = self.wait(lambda: next((c for c in self.all("#product-list .product") if PRODUCT_TITLE in c.text), None),
                         f"the product {PRODUCT_TITLE}")
        price = card.find_element("css selector", "input.inline.price")
        sku_id = price.get_attribute("data-sku")
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", price)
        price.send_keys(Keys.CONTROL, "a")
        price.send_keys(Keys.DELETE)
        price.send_keys(NEW_PRICE, Keys.ENTER)
        self.wait(lambda: f"¥{NEW_PRICE}" in self.find("#toast.show").text, f"the 价格已改为 ¥{NEW_PRICE} toast")
        with urllib.request.urlopen(f"{self.server.base}/api/v1/products/{self.product_id}", timeout=5) as answer:
            skus = json.loads(answer.read().decode())["skus"]
        if not any(str(s["id"]) == sku_id and s["price_cents"] == NEW_PRICE_CENTS for s in skus):
            raise StepFailure(f"the storefront does not show SKU {sku_id} at ¥{NEW_PRICE}: {skus}")
        self.save("desk-owner-price")
        self.click("#nav-audit")
        self.wait(lambda: any("sku.update" in row.text and "desk-owner" in row.text for row in self.all("#audit-list tr")),
                  "the price edit in the audit log")

    def desk_florist_ships(self):
        """The florist: only their entries; the buyer's paid order shipped with a tracking number."""
        self.desk_sign_in("desk-florist")
        self.expect_menu(["dashboard", "products", "orders"], ["staff", "audit", "coupons", "buyers", "comments", "after-sales"])
        self.click("#nav-orders")
        self.type("#order-q", self.order_number)
        self.click("#order-search")
        self.click(self.wait(lambda: next((a for a in self.all("#order-list a.order-link") if a.text == self.order_number), None),
                             f"the order {self.order_number} in the list"))
        self.find('#order-detail[data-status="paid"]')
        if self.all("#order-refund") or self.all("#order-cancel"):
            raise StepFailure("a florist is offered refund or cancel")
        self.click("#order-ship")
        self.type("#ship-carrier", CARRIER)
        self.type("#ship-tracking", TRACKING)
        self.click("#dialog-ok")
        self.find('#order-detail[data-status="shipped"]')
        self.wait(lambda: TRACKING in self.text("#order-timeline") and "已发货" in self.text("#order-timeline"),
                  "the shipment in the timeline")
        self.find("#order-deliver")

    def buyer_api(self, method, path, token, body=None, raw=None, content_type="application/json"):
        """One call of the storefront's API as the buyer (the JSON answer)."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(f"{self.server.base}/api/v1{path}", data=data, method=method,
                                         headers={"Authorization": f"Bearer {token}", "Content-Type": content_type})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.loads(answer.read().decode())
        except urllib.error.HTTPError as answer:
            raise StepFailure(f"{method} {path} answered {answer.code}: {answer.read().decode(errors='replace')}") from None

    def desk_service_approves_a_refund(self):
        """Customer service: the buyer's refund request (with a photo) approved from the queue for less than asked."""
        buyer_token = self.d.execute_script("return localStorage.getItem('floral.token')")
        if not buyer_token:
            raise StepFailure("the buyer's token is not in the storefront's storage")
        orders = self.buyer_api("GET", "/orders?per_page=100", buyer_token)["items"]
        order = next((o for o in orders if o["number"] == self.order_number), None)
        if not order or order["status"] != "shipped":
            raise StepFailure(f"the shipped order {self.order_number} is not in the buyer's list: {orders}")
        from photos import photo
        path = self.server.workdir / "after-sale.jpg"
        photo(str(path), 800, 600, seed=31)
        uploaded = self.buyer_api("POST", "/media", buyer_token, raw=path.read_bytes(), content_type="image/jpeg")
        asked = self.buyer_api("POST", f"/orders/{order['id']}/after-sales", buyer_token,
                               {"kind": "refund", "reason": AFTER_SALE_REASON, "photo_urls": [uploaded["url"]],
                                "amount_cents": AFTER_SALE_ASKED})
        if asked["status"] != "requested":
            raise StepFailure(f"the after-sale request is {asked['status']}, not requested")

        self.desk_sign_in("desk-service")
        self.click("#nav-after-sales")
        row = self.wait(lambda: next((r for r in self.all("#after-sale-list tr") if self.order_number in r.text), None),
                        f"the request about {self.order_number} in the queue")
        if AFTER_SALE_REASON not in row.text or "¥30.00" not in row.text:
            raise StepFailure(f"the queue row does not show the reason and ¥30.00: {row.text!r}")
        thumbs = row.find_elements("css selector", "img.thumb")
        if not thumbs or not thumbs[0].get_attribute("src").endswith(uploaded["thumbnail_url"]):
            raise StepFailure(f"the photo is not shown as its thumbnail {uploaded['thumbnail_url']}")
        self.wait(lambda: self.d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", thumbs[0]),
                  "the thumbnail to load")
        self.save("desk-service-after-sales")
        self.click(f"#after-sale-approve-{asked['id']}")
        amount = self.find("#decision-amount")
        if amount.get_attribute("value") != "30.00":
            raise StepFailure(f"the amount field does not start at what the buyer asked: {amount.get_attribute('value')!r}")
        amount.send_keys(Keys.CONTROL, "a")
        amount.send_keys(Keys.DELETE)
        amount.send_keys("20")
        self.type("#decision-note", "部分花材完好，退 20 元")
        self.click("#dialog-ok")
        self.wait(lambda: "已同意" in self.find("#toast.show").text, "the 已同意 toast")
        self.wait(lambda: not any(self.order_number in r.text for r in self.all("#after-sale-list tr")),
                  "the request to leave the waiting queue")
        mine = self.buyer_api("GET", f"/orders/{order['id']}", buyer_token)["after_sale"]
        if not mine or mine["status"] != "approved" or mine["amount_cents"] != AFTER_SALE_APPROVED:
            raise StepFailure(f"the buyer's order does not show the approved refund of ¥20.00: {mine}")
        self.d.execute_script("const s = document.getElementById('after-sale-status');"
                              "s.value = 'approved'; s.dispatchEvent(new Event('change'));")
        self.wait(lambda: any(self.order_number in r.text and "退款单" in r.text for r in self.all("#after-sale-list tr")),
                  "the approved request with its refund number")
        self.save("desk-service-after-sale-approved")

    def desk_service_bans(self):
        """Customer service: the buyer found by phone and banned with a reason; their token dies."""
        buyer_token = self.d.execute_script("return localStorage.getItem('floral.token')")
        self.desk_sign_in("desk-service")
        self.expect_menu(["orders", "after-sales", "buyers", "comments"], ["staff", "audit", "coupons"])
        self.click("#nav-buyers")
        self.type("#buyer-q", self.phone)
        self.click("#buyer-search")
        row = self.wait(lambda: next((r for r in self.all("#buyer-list tr") if self.phone in r.text), None), f"the buyer {self.phone}")
        self.click(row.find_element("css selector", "button[data-ban]"))
        self.type("#ban-reason", BAN_REASON)
        self.click("#dialog-ok")
        self.wait(lambda: any(self.phone in r.text and "已封禁" in r.text for r in self.all("#buyer-list tr")), "the buyer shown as 已封禁")
        if buyer_token:
            request = urllib.request.Request(f"{self.server.base}/api/v1/me", headers={"Authorization": f"Bearer {buyer_token}"})
            try:
                urllib.request.urlopen(request, timeout=5)
                raise StepFailure("the banned buyer's token still works")
            except urllib.error.HTTPError as answer:
                if answer.code != 401:
                    raise StepFailure(f"the banned buyer's token answered {answer.code}, not 401") from None

    # ---- issue 30's "done when": each role's daily work, then the owner's day in figures and in the audit log ----

    def public_api(self, path):
        """(status, JSON or None) of GET /api/v1{path} as a visitor who is not signed in."""
        try:
            with urllib.request.urlopen(f"{self.server.base}/api/v1{path}", timeout=10) as answer:
                return answer.status, json.loads(answer.read().decode())
        except urllib.error.HTTPError as answer:
            return answer.code, None

    def toast_says(self, text):
        self.wait(lambda: text in self.find("#toast.show").text, f"the {text} toast")

    def open_desk_order(self):
        """The buyer's order from the orders screen: searched by number, opened from the list."""
        self.type("#order-q", self.order_number)
        self.click("#order-search")
        self.click(self.wait(lambda: next((a for a in self.all("#order-list a.order-link") if a.text == self.order_number), None),
                             f"the order {self.order_number} in the list"))

    def desk_product(self, title):
        """A product's card on the products screen, searched by its title (only once the search's answer is drawn)."""
        self.type("#product-q", title)
        self.click("#product-search")

        def found():
            cards = self.all("#product-list .product")
            titles = [c.find_element("css selector", ".product-title").text for c in cards]
            return cards[0] if cards and all(t == title for t in titles) else None
        return self.wait(found, f"the product {title} alone in the list")

    def desk_manager_takes_off_sale(self):
        """A manager: one product off sale (buyers get 404), one SKU of another off sale with its row's button."""
        self.resize(DESKTOP)
        token = self.desk_sign_in("desk-manager")
        self.expect_menu(["dashboard", "products", "orders", "after-sales", "coupons", "buyers", "comments", "audit"], ["staff"])
        self.click("#nav-products")
        card = self.desk_product(OFF_SALE_TITLE)
        product_id = card.get_attribute("data-product")
        if self.public_api(f"/products/{product_id}")[0] != 200:
            raise StepFailure(f"{OFF_SALE_TITLE} is not on sale to begin with")
        self.click(card.find_element("css selector", f'button[data-toggle-sale="{product_id}"]'))
        confirm = self.find(".overlay .confirm-text")
        if OFF_SALE_TITLE not in confirm.text:
            raise StepFailure(f"the confirmation does not name the product: {confirm.text!r}")
        self.click("#dialog-ok")
        self.toast_says("已下架")
        self.wait(lambda: any(c.get_attribute("data-product") == product_id and "已下架" in c.find_element("css selector", ".product-head").text
                              and c.find_element("css selector", "button[data-toggle-sale]").text == "上架"
                              for c in self.all("#product-list .product")), "the product shown 已下架 with a 上架 button")
        status, _ = self.public_api(f"/products/{product_id}")
        if status != 404:
            raise StepFailure(f"a buyer still gets the product taken off sale: GET /products/{product_id} answered {status}")
        if self.staff_api("GET", f"/admin/products/{product_id}", token)["status"] != "off_sale":
            raise StepFailure("the desk's API does not show the product off sale")
        self.save("desk-manager-product-off-sale")
        self.off_sale_product_id = product_id

        card = self.desk_product(SKU_OFF_TITLE)
        product_id = card.get_attribute("data-product")
        status, before = self.public_api(f"/products/{product_id}")
        row = next((r for r in card.find_elements("css selector", "tr[data-sku-row]")
                    if r.find_element("css selector", "td").text == SKU_OFF_NAME), None)
        if status != 200 or row is None:
            raise StepFailure(f"{SKU_OFF_TITLE} ({status}) has no SKU row {SKU_OFF_NAME} on sale to begin with")
        sku_id = row.get_attribute("data-sku-row")
        if not any(str(s["id"]) == sku_id for s in before["skus"]):
            raise StepFailure(f"a buyer does not see SKU {sku_id} before it goes off sale: {before['skus']}")
        self.click(row.find_element("css selector", f'button[data-toggle-sku="{sku_id}"]'))
        self.toast_says("已下架")
        row_css = f'#product-list tr[data-sku-row="{sku_id}"]'
        self.wait(lambda: "已下架" in self.text(row_css) and self.text(f'{row_css} button[data-toggle-sku]') == "上架",
                  f"the SKU {SKU_OFF_NAME} shown 已下架 with a 上架 button")
        status, after = self.public_api(f"/products/{product_id}")
        if status != 200:
            raise StepFailure(f"the product went away with its SKU: GET /products/{product_id} answered {status}")
        left = {str(s["id"]) for s in after["skus"]}
        if sku_id in left or left != {str(s["id"]) for s in before["skus"]} - {sku_id}:
            raise StepFailure(f"a buyer sees SKUs {sorted(left)}; expected the others without {sku_id}")
        self.off_sale_sku_id = sku_id
        self.save("desk-manager-sku-off-sale")

    def staff_api(self, method, path, token, body=None):
        """One call of the desk's API with a staff member's token (the JSON answer)."""
        return self.buyer_api(method, path, token, body)

    def desk_florist_delivers_on_a_phone(self):
        """The florist at phone size: the shipped order marked delivered with a photo chosen in the page."""
        from photos import photo
        path = self.server.workdir / "delivered.jpg"
        photo(str(path), 1200, 1600, seed=37)
        self.resize(PHONE)
        token = self.desk_sign_in("desk-florist")
        self.click("#menu-toggle")
        self.wait(lambda: self.uncovered(self.find("#nav-orders")), "the menu opened by ☰")
        self.click("#nav-orders")
        self.open_desk_order()
        self.find('#order-detail[data-status="shipped"]')
        self.click("#order-deliver")
        self.find("#deliver-photo").send_keys(str(path))
        self.save("desk-florist-deliver-dialog")
        self.click("#dialog-ok")
        self.toast_says("已标记送达")
        self.find('#order-detail[data-status="delivered"]')
        picture = self.wait(lambda: next(iter(self.all("#order-timeline .ev-delivered img.thumb")), None), "the delivery photo in the timeline")
        self.wait(lambda: self.d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", picture),
                  "the delivery photo to load")
        order = self.staff_api("GET", f"/admin/orders/{self.order_number}", token)
        url = order.get("delivery_photo_url") or ""
        if order["status"] != "delivered" or not url.startswith("/media/"):
            raise StepFailure(f"the order is {order['status']} with delivery_photo_url {url!r}, not delivered with a shop /media picture")
        if not picture.get_attribute("src").endswith(url):
            raise StepFailure(f"the timeline shows {picture.get_attribute('src')}, not {url}")
        with urllib.request.urlopen(self.server.base + url, timeout=10) as answer:
            if not answer.headers.get("Content-Type", "").startswith("image/"):
                raise StepFailure(f"{url} is served as {answer.headers.get('Content-Type')}")
        wide = self.d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        if wide > 1:
            raise StepFailure(f"the order screen is {wide} px wider than a phone screen")
        self.save("desk-florist-delivered")
        # The recipient's page (no account): delivered, with the florist's photo, phones masked.
        tracking = order.get("tracking_url") or ""
        if "/track/" not in tracking:
            raise StepFailure(f"the order has no tracking page: tracking_url {tracking!r}")
        self.d.get(self.server.base + tracking[tracking.index("/track/"):])
        page = self.find("body").text
        if "已送达" not in page:
            raise StepFailure(f"the recipient's page does not say 已送达:\n{page[:400]}")
        shown = [img for img in self.all("img") if (img.get_attribute("src") or "").endswith(url)]
        if not shown or not self.d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", shown[0]):
            raise StepFailure(f"the recipient's page does not show the delivery photo {url}")
        if re.search(r"1[3-9]\d{9}", page):
            raise StepFailure("the recipient's page shows a whole phone number")
        self.save("recipient-tracking-page")
        self.resize(DESKTOP)

    def desk_manager_refunds_part(self):
        """A manager: part of the delivered order refunded from its detail, after the dialog's second question."""
        self.resize(DESKTOP)
        token = self.desk_sign_in("desk-manager")
        self.click("#nav-orders")
        self.open_desk_order()
        self.find('#order-detail[data-status="delivered"]')
        before = self.staff_api("GET", f"/admin/orders/{self.order_number}", token)
        if PART_REFUND_CENTS >= before["total_cents"]:
            raise StepFailure(f"the order's total {before['total_cents']} is not above the partial refund")
        self.click("#order-refund")
        # "最多可退" is what the server would still take: the payment less every refund opened on it,
        # the after-sale's one still on its way included.
        paid = next(p["amount_cents"] for p in before["payments"] if p["status"] == "succeeded")
        left = paid - sum(r["amount_cents"] for r in before["refunds"])
        limit = f"最多可退 ¥{left // 100}.{left % 100:02d}"
        if limit not in self.text(".overlay .dialog-body"):
            raise StepFailure(f"the refund dialog does not say {limit}: {self.text('.overlay .dialog-body')!r}")
        self.type("#refund-amount", PART_REFUND)
        self.type("#refund-reason", PART_REFUND_REASON)
        self.click("#dialog-ok")
        question = self.wait(lambda: len(self.all(".overlay")) == 2 and self.all(".overlay")[-1], "the refund's confirmation")
        if f"¥{PART_REFUND}.00" not in question.text or self.order_number not in question.text:
            raise StepFailure(f"the confirmation does not say the amount and the order: {question.text!r}")
        self.save("desk-manager-refund-confirm")
        self.click(question.find_element("css selector", "#dialog-ok"))
        self.toast_says("退款已提交")
        self.wait(lambda: not self.all(".overlay"), "both dialogs to close")
        self.wait(lambda: f"退款 ¥{PART_REFUND}.00" in self.text("#order-timeline") and PART_REFUND_REASON in self.text("#order-timeline"),
                  "the refund in the timeline")
        after = self.staff_api("GET", f"/admin/orders/{self.order_number}", token)
        mine = [r for r in after["refunds"] if r["amount_cents"] == PART_REFUND_CENTS and r["reason"] == PART_REFUND_REASON]
        if len(mine) != 1 or len(after["refunds"]) != len(before["refunds"]) + 1 or after["status"] != "delivered":
            raise StepFailure(f"the order ({after['status']}) does not have the one partial refund: {after['refunds']}")
        entries = self.staff_api("GET", f"/admin/audit?target=order:{self.order_number}", token)["items"]
        if not any(e["action"] == "order.refund" and e["actor"] == "desk-manager" for e in entries):
            raise StepFailure(f"no order.refund by desk-manager in the audit log: {[(e['action'], e['actor']) for e in entries]}")
        self.save("desk-manager-refunded")

    def desk_service_deletes_a_comment(self):
        """The buyer posts a spam comment; customer service finds it on the comments screen and deletes it."""
        buyer_token = self.d.execute_script("return localStorage.getItem('floral.token')")
        status, articles = self.public_api("/articles?per_page=1")
        if status != 200 or not articles["items"]:
            raise StepFailure(f"no article to comment on (GET /articles answered {status})")
        article_id = articles["items"][0]["id"]
        posted = self.buyer_api("POST", f"/articles/{article_id}/comments", buyer_token, {"content": SPAM_COMMENT})
        shown = lambda: [c["id"] for c in self.public_api(f"/articles/{article_id}/comments?per_page=100")[1]["items"]]
        if posted["id"] not in shown():
            raise StepFailure("buyers do not see the comment before it is deleted")
        self.desk_sign_in("desk-service")
        self.click("#nav-comments")
        self.type("#comment-q", SPAM_COMMENT[:6])
        self.click("#comment-search")

        def found():
            rows = self.all("#comment-list tbody tr")
            return rows[0] if len(rows) == 1 and SPAM_COMMENT in rows[0].text else None
        row = self.wait(found, "the spam comment alone in the search's answer")
        self.save("desk-service-comments")
        self.click(row.find_element("css selector", f'button[data-delete-comment="{posted["id"]}"]'))
        self.wait(lambda: SPAM_COMMENT[:10] in self.text(".overlay .confirm-text"), "the confirmation quoting the comment")
        self.click("#dialog-ok")
        self.toast_says("评论已删除")
        self.wait(lambda: not any(SPAM_COMMENT in r.text for r in self.all("#comment-list tr")), "the comment to leave the list")
        if posted["id"] in shown():
            raise StepFailure("buyers still see the deleted comment")
        self.deleted_comment_id = posted["id"]

    def desk_owner_reads_the_day(self):
        """The owner: today's figures on the dashboard are the sales report's, and the audit log names each action above."""
        self.resize(DESKTOP)
        token = self.desk_sign_in("desk-owner")
        day = datetime.now(SHOP_ZONE).strftime("%Y-%m-%d")
        money = lambda cents: f"¥{cents // 100}.{cents % 100:02d}"
        shown = expected = None
        for _ in range(5):   # a refund the provider confirms meanwhile changes the figures: read again, as a person would
            report = self.staff_api("GET", f"/admin/reports/sales?from={day}&to={day}", token)["total"]
            expected = {"orders": str(report["orders"]), "sales": money(report["paid_cents"]),
                        "items": str(report["items"]), "refunds": money(report["refunded_cents"])}
            shown = {key: self.text(f"#today-{key} .stat-value") for key in expected}
            if shown == expected:
                break
            time.sleep(1)
            self.d.refresh()
        if shown != expected:
            raise StepFailure(f"the dashboard shows {shown}; GET /admin/reports/sales for {day} says {expected}")
        if report["orders"] < 1 or report["paid_cents"] <= 0:
            raise StepFailure(f"today's report has no paid order: {report}")
        self.save("desk-owner-today")
        self.click("#nav-audit")
        wanted = [("product.update", f"product:{self.off_sale_product_id}", "desk-manager"),
                  ("sku.update", f"sku:{self.off_sale_sku_id}", "desk-manager"),
                  ("sku.update", None, "desk-owner"),
                  ("order.ship", f"order:{self.order_number}", "desk-florist"),
                  ("order.deliver", f"order:{self.order_number}", "desk-florist"),
                  ("order.refund", f"order:{self.order_number}", "desk-manager"),
                  ("after_sale.approve", None, "desk-service"),
                  ("comment.delete", f"comment:{self.deleted_comment_id}", "desk-service"),
                  ("user.ban", None, "desk-service")]

        def missing():
            rows = self.d.execute_script("return [...document.querySelectorAll('#audit-list tbody tr')]"
                                         ".map((tr) => [...tr.cells].map((td) => td.textContent.trim()))")
            return [w for w in wanted if not any(len(r) > 3 and r[2] == w[0] and r[1] == w[2] and (w[1] is None or r[3] == w[1])
                                                 for r in rows)]
        try:
            self.wait(lambda: not missing(), "each action of the day in the audit log")
        except StepFailure:
            raise StepFailure(f"the audit screen lacks {missing()}") from None
        self.save("desk-owner-audit")

    def desk_on_a_phone(self):
        """At phone size the menu folds behind ☰, opens on a tap and closes on a choice."""
        self.resize(PHONE)
        self.d.get(self.server.base + "/admin#/orders")
        self.find("#order-list")
        folded = lambda: self.rect(self.find("#side-menu", visible=False))["right"] <= 0
        self.wait(folded, "the side menu folded away at phone size")
        self.click("#menu-toggle")
        self.wait(lambda: self.rect(self.find("#side-menu", visible=False))["left"] >= 0 and self.uncovered(self.find("#nav-orders")),
                  "the menu opened by ☰")
        self.save("desk-phone-menu")
        self.click("#nav-buyers")
        self.find("#buyer-list")
        self.wait(folded, "the menu folded after a choice")
        wide = self.d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        if wide > 1:
            raise StepFailure(f"the desk is {wide} px wider than a phone screen")
        self.resize(DESKTOP)


STEPS = [
    ("the desk: the owner edits a price (and sees it audited)", "desk_owner_edits_a_price"),
    ("the desk: a manager takes a product, then one SKU, off sale", "desk_manager_takes_off_sale"),
    ("the desk: the florist ships the buyer's order", "desk_florist_ships"),
    ("the desk: customer service approves the buyer's refund request", "desk_service_approves_a_refund"),
    ("the desk on a phone: the florist delivers the order with a photo", "desk_florist_delivers_on_a_phone"),
    ("the desk: a manager refunds part of the order", "desk_manager_refunds_part"),
    ("the desk: customer service deletes the buyer's spam comment", "desk_service_deletes_a_comment"),
    ("the desk: customer service bans the buyer", "desk_service_bans"),
    ("the desk on a phone: the folding menu", "desk_on_a_phone"),
    ("the desk: the owner reads today's sales and finds the day's work in the audit log", "desk_owner_reads_the_day"),
]
