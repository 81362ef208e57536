"""The operators' desk (`/admin`, issue 30) in the browser test: steps mixed into browser_test.Run.

On by default (ADMIN_BROWSER_TEST=0 leaves them out); every step below runs, none is skipped. They run after
the storefront's steps, on the same shop: its buyer, their paid order and the product they saw.

Three staff accounts are made with `shop staff add NAME --role ROLE --password-stdin` against
the test server's database, then each signs in at /admin in a fresh tab session and does one
day's task:
- the owner sees every menu entry and today's sales on the dashboard, edits a SKU's price in
  place (the storefront's API shows the new price at once) and finds that edit in the audit log;
- the florist sees only their entries (no staff, coupons or buyers), finds the buyer's paid order
  by number and ships it with a carrier and tracking number (the timeline says shipped);
- customer service opens the after-sale queue, where the buyer's refund request about that shipped
  order waits with its photo as a thumbnail (the buyer asked through the API: a photo uploaded
  with POST /media, then POST /orders/{id}/after-sales), approves it for a smaller amount, and the
  buyer's order shows the request approved with its refund opened;
- customer service finds the buyer by phone and bans them with a reason, after which the buyer's
  own token is refused (401);
- at phone size the side menu folds behind ☰ and opens on a tap.
Each step saves a screenshot like the storefront's steps.
"""

import json
import os
import subprocess
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
EXTRA_SECONDS = 180          # added to the run's time limit when these steps are on

# username → (role, password); passwords are 10+ characters as `shop staff` requires.
STAFF = {
    "desk-owner": ("owner", "owner-pass-2026"),
    "desk-florist": ("florist", "florist-pass-2026"),
    "desk-service": ("service", "service-pass-2026"),
}
NEW_PRICE = "288.00"
NEW_PRICE_CENTS = 28800
CARRIER, TRACKING = "顺丰速运", "SF1234567890"
BAN_REASON = "发布广告，多次提醒无效"
AFTER_SALE_REASON = "花瓣边缘发黑，有两枝已经蔫了"
AFTER_SALE_ASKED, AFTER_SALE_APPROVED = 3000, 2000   # cents: what the buyer asks, what the desk gives back


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
        self.wait(lambda: username in self.text("#who"), f"{username} signed in")
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
    ("the desk: the florist ships the buyer's order", "desk_florist_ships"),
    ("the desk: customer service approves the buyer's refund request", "desk_service_approves_a_refund"),
    ("the desk: customer service bans the buyer", "desk_service_bans"),
    ("the desk on a phone: the folding menu", "desk_on_a_phone"),
]
