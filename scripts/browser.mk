# `make test-browser`: the storefront page in headless Chromium (scripts/browser_test.py).
# Included from the Makefile; needs the Debian packages below (installed by bootstrap.sh as root)
# and selenium from PyPI in a virtualenv at .venv-browser.
# fonts-wqy-microhei: a small CJK font, so the screenshots show Chinese rather than empty boxes.
# The run ends with the operators' desk (/admin, scripts/browser_admin.py); ADMIN_BROWSER_TEST=0 leaves it out.
SWIFT ?= swift
BROWSER_PACKAGES := chromium chromium-driver python3-venv fonts-wqy-microhei
BROWSER_VENV := .venv-browser
BROWSER_PYTHON ?= /usr/bin/python3

.PHONY: test-browser

## Build, then drive the storefront in headless Chromium (screenshots under a temp folder).
test-browser:
	@scripts/bootstrap.sh $(BROWSER_PACKAGES)
	$(SWIFT) build
	@if [ ! -x $(BROWSER_VENV)/bin/python ]; then $(BROWSER_PYTHON) -m venv $(BROWSER_VENV); fi
	@$(BROWSER_VENV)/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements-browser.txt
	$(BROWSER_VENV)/bin/python scripts/browser_test.py
