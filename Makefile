# Floral Shop: `make run` and `make test` are all a new machine needs.
SWIFT ?= swift
BUILD_PACKAGES := libsqlite3-dev libssl-dev libargon2-dev libmicrohttpd-dev libpq-dev libxml2 pkg-config
POSTGRES_PACKAGES := postgresql-15
BENCH_PACKAGES := wrk curl
SHOP := .build/debug/shop

.PHONY: all bootstrap build run test unit contract reliability bench postgres postgres-stop test-postgres clean

# make test-browser: the storefront driven by headless Chromium (scripts/browser.mk)
include scripts/browser.mk

all: build

bootstrap:
	@scripts/bootstrap.sh $(BUILD_PACKAGES)

build: bootstrap
	$(SWIFT) build

## Build, migrate, load the demo shop into an empty database, and serve on :8080 (Ctrl-C stops it).
run: build
	$(SHOP) migrate
	$(SHOP) seed demo --if-empty
	$(SHOP) serve

## Build and run every test: the Swift suites, then Schemathesis against a real server.
test: unit contract

unit: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

CONTRACT_VENV := .venv-contract
$(CONTRACT_VENV)/bin/schemathesis: scripts/requirements-contract.txt
	@scripts/bootstrap.sh python3 python3-venv
	python3 -m venv $(CONTRACT_VENV)
	$(CONTRACT_VENV)/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements-contract.txt
	touch $@

## Schemathesis (pinned in scripts/requirements-contract.txt) against shop serve with the demo seed.
contract: build $(CONTRACT_VENV)/bin/schemathesis
	python3 scripts/contract_test.py $(CONTRACT_VENV)/bin/schemathesis

## Crash (SIGKILL mid-checkout), overload and soak checks against a real server; a few minutes.
reliability: build
	python3 scripts/reliability.py

## Release build + wrk on loopback, SQLite then PostgreSQL (ENGINES=sqlite,postgresql); see bench/RESULTS.md.
ENGINES ?= sqlite,postgresql
bench: bootstrap
	@scripts/bootstrap.sh $(BENCH_PACKAGES) $(if $(findstring postgresql,$(ENGINES)),$(POSTGRES_PACKAGES))
	ENGINES=$(ENGINES) bench/run.sh

## A throwaway PostgreSQL 15 cluster under .build/postgres (port 54329, PGPORT overrides); prints its URL.
## Its tests: SHOP_TEST_POSTGRES_URL=$(scripts/postgres.sh url) swift test --skip-build --filter PostgreSQL
postgres:
	@scripts/bootstrap.sh $(POSTGRES_PACKAGES)
	@scripts/postgres.sh start

postgres-stop:
	@scripts/postgres.sh stop

## The PostgreSQL engine's suites against that cluster.
test-postgres: bootstrap postgres
	$(SWIFT) build --build-tests
	SHOP_TEST_POSTGRES_URL=$$(scripts/postgres.sh url) $(SWIFT) test --skip-build --filter PostgreSQL

clean: postgres-stop
	rm -rf .build
