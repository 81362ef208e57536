"""Facets (issue 34) in the browser test: a step mixed into browser_test.Run (like browser_zones).

After searching 玫瑰 the category chips and the price-range chips show counts, the same counts
GET /products?q=玫瑰&facets=true answers; picking a category chip shows that many results (the
summary says so) and recounts the price chips within it; picking a price chip narrows the list to
its count and shows it picked; picking it again clears it, and 全部 clears the category, leaving
the search as it was for the steps after.
"""

import re
import urllib.parse

# Set by configure() from browser_test (it runs as __main__; importing it here would copy its classes).
StepFailure = Exception

EXTRA_SECONDS = 30
QUERY = "玫瑰"


def configure(*, step_failure):
    global StepFailure
    StepFailure = step_failure


class FacetSteps:
    """The step; `self` is browser_test.Run (with browser_storefront.Storefront's expect_call)."""

    def facets_api(self, **filters):
        query = urllib.parse.urlencode({"q": QUERY, "facets": "true", **filters})
        return self.expect_call(200, "GET", f"/products?{query}")

    def chip_counts(self, css):
        """The shown chips of a row: {data attribute key: count shown}."""
        counts = {}
        for chip in self.all(f"{css} .chip"):
            shown = chip.find_elements("css selector", ".chip-count")
            counts[chip.get_attribute("data-category-id") or chip.get_attribute("data-min-cents") or ""] = (
                int(shown[0].text) if shown else None)
        return counts

    def summary_count(self):
        found = re.search(r"(\d+)", self.text("#result-summary"))
        return int(found.group(1)) if found else None

    def settled(self, total):
        """The list has loaded and the summary says `total` results."""
        return not self.all("#product-grid .loading") and self.summary_count() == total

    def search_facets(self):
        listing = self.facets_api()
        facets = listing["facets"]
        top = [c for c in facets["categories"] if c["parent_id"] is None]
        if not top:
            raise StepFailure(f"GET /products?q={QUERY}&facets=true has no category counts: {facets}")
        # The chips show the API's counts: each top category's, 全部 their sum, every price range's.
        expected_categories = {str(c["id"]): c["count"] for c in top}
        expected_categories[""] = sum(c["count"] for c in top)
        self.wait(lambda: self.chip_counts("#categories") == expected_categories,
                  f"category chips with counts {expected_categories} (shown: {self.chip_counts('#categories')})")
        # (A range or category with nothing in it is left out, as long as it is not picked.)
        expected_ranges = {str(r["min_cents"]): r["count"] for r in facets["price_ranges"] if r["count"]}
        self.wait(lambda: self.chip_counts("#price-ranges") == expected_ranges,
                  f"price chips with counts {expected_ranges} (shown: {self.chip_counts('#price-ranges')})")
        if self.summary_count() != listing["total"]:
            raise StepFailure(f"the summary says {self.text('#result-summary')!r}, the list holds {listing['total']}")

        # Pick the top category with the most results: the list shows exactly its count.
        category = max(top, key=lambda c: c["count"])
        self.click(f"#categories .chip[data-category-id='{category['id']}']")
        self.wait(lambda: self.settled(category["count"]), f"{category['count']} results in {category['name']}")
        chip = self.find(f"#categories .chip[data-category-id='{category['id']}']")
        if "active" not in chip.get_attribute("class") or chip.get_attribute("aria-pressed") != "true":
            raise StepFailure(f"the {category['name']} chip does not show as picked")
        # The other top categories keep their counts; the price chips count within the category.
        within = self.facets_api(category_id=category["id"])["facets"]
        ranges = {str(r["min_cents"]): r["count"] for r in within["price_ranges"] if r["count"]}
        self.wait(lambda: self.chip_counts("#price-ranges") == ranges, f"price chips counted within {category['name']}: {ranges}")
        if {k: v for k, v in self.chip_counts("#categories").items() if k} != {k: v for k, v in expected_categories.items() if k}:
            raise StepFailure(f"picking {category['name']} changed the other categories' counts: {self.chip_counts('#categories')}")

        # Pick the price range with the most results in it, then clear it by picking it again.
        price = max(within["price_ranges"], key=lambda r: r["count"])
        selector = f"#price-ranges .chip[data-min-cents='{price['min_cents']}']"
        self.click(selector)
        self.wait(lambda: self.settled(price["count"]), f"{price['count']} results priced from {price['min_cents']} cents")
        if self.find(selector).get_attribute("aria-pressed") != "true":
            raise StepFailure("the price chip does not show as picked")
        self.click(selector)
        self.wait(lambda: self.settled(category["count"]) and self.find(selector).get_attribute("aria-pressed") == "false",
                  "the price chip cleared")
        self.click("#categories .chip[data-category-id='']")
        self.wait(lambda: self.settled(listing["total"]), f"all {listing['total']} results of {QUERY} again")
