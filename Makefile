# Floral Shop: `make run` and `make test` are all a new machine needs.
SWIFT ?= swift
BUILD_PACKAGES := libsqlite3-dev libssl-dev libargon2-dev libmicrohttpd-dev libpq-dev libcurl4-openssl-dev libvips-dev libxml2 pkg-config \
	node-qrcode-generator
POSTGRES_PACKAGES := postgresql-15
CLUSTER_PACKAGES := haproxy curl $(POSTGRES_PACKAGES)
BENCH_PACKAGES := wrk curl
# The WeChat client-certificate tests make their CA with openssl and front the fake gateway with python3.
TEST_PACKAGES := openssl python3
SHOP := .build/debug/shop

.PHONY: all bootstrap build run run-fake-payments run-postgres test unit contract reliability bench bench-cluster postgres postgres-stop \
	heavy test-postgres unit-postgres contract-postgres reliability-postgres cross-node fault cluster cluster-stop stall-demo \
	cluster-status clean

# make test-browser: the storefront driven by headless Chromium (scripts/browser.mk)
include scripts/browser.mk

all: build

bootstrap:
	@scripts/bootstrap.sh $(BUILD_PACKAGES)

build: bootstrap
	$(SWIFT) build

# The demo shop's customer-service contact (app.service_contact), shown beside the 99-item message;
# `make run DEMO_SERVICE_CONTACT=` leaves the setting to Config/shop.json and the environment.
DEMO_SERVICE_CONTACT ?= 微信 huatian-kefu · 400-820-1314
DEMO_ENV = $(if $(DEMO_SERVICE_CONTACT),SHOP_APP_SERVICE_CONTACT="$${SHOP_APP_SERVICE_CONTACT-$(DEMO_SERVICE_CONTACT)}")

## Build, migrate, load the demo shop into an empty database, and serve on :8080 (Ctrl-C stops it).
run: build
	$(SHOP) migrate
	$(SHOP) seed demo --if-empty
	$(DEMO_ENV) $(SHOP) serve

## Fake WeChat Pay and Alipay on loopback (test keys; development only, never part of `shop`): writes
## .build/fake-payments.env for `make run` and takes an operator's commands on :9300 (see README).
run-fake-payments: build
	.build/debug/fake-payments $(FAKE_PAYMENTS_FLAGS)

## Build and run every test: the Swift suites, then Schemathesis against a real server.
test: unit contract

unit: bootstrap
	@scripts/bootstrap.sh $(TEST_PACKAGES)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

CONTRACT_VENV := .venv-contract
$(CONTRACT_VENV)/bin/schemathesis: scripts/requirements-contract.txt
	@scripts/bootstrap.sh python3 python3-venv
	python3 -m venv $(CONTRACT_VENV)
	$(CONTRACT_VENV)/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements-contract.txt
	touch $@

## Tests too slow for `unit` (SHOP_HEAVY_TESTS): search's worst queries over a 100k-SKU catalogue built
## in the test, on SQLite then on PostgreSQL (the cluster of `make postgres`).
heavy: bootstrap postgres
	$(SWIFT) build --build-tests
	SHOP_HEAVY_TESTS=1 $(SWIFT) test --skip-build --filter SearchWorstCaseTests
	SHOP_HEAVY_TESTS=1 SHOP_TEST_POSTGRES_URL=$$(scripts/postgres.sh url) $(SWIFT) test --skip-build --filter SearchWorstCaseTests

## Schemathesis (pinned in scripts/requirements-contract.txt) against shop serve with the demo seed,
## then GET /metrics parsed by prometheus-client (pinned there too).
contract: build $(CONTRACT_VENV)/bin/schemathesis
	python3 scripts/contract_test.py $(CONTRACT_VENV)/bin/schemathesis
	$(CONTRACT_VENV)/bin/python scripts/metrics_check.py

## Crash (SIGKILL mid-checkout), overload, soak and isolation (a silent payment provider, a login
## rush) checks against a real server; a few minutes. RELIABILITY_SUITES=isolation runs one suite.
reliability: build
	python3 scripts/reliability.py

## By hand: a shop whose WeChat Pay gateway never answers, 64 payment starts, and a shopper's
## latencies meanwhile (scripts/stall_demo.py; STALL_DEMO_FLAGS="--payments 128 --provider-timeout 10").
stall-demo: build
	python3 scripts/stall_demo.py $(STALL_DEMO_FLAGS)

## Release build + wrk on loopback, SQLite then PostgreSQL (ENGINES=sqlite,postgresql); see bench/RESULTS.md.
ENGINES ?= sqlite,postgresql
bench: bootstrap
	@scripts/bootstrap.sh $(BENCH_PACKAGES) $(if $(findstring postgresql,$(ENGINES)),$(POSTGRES_PACKAGES))
	ENGINES=$(ENGINES) bench/run.sh

## The release build as 1, 2 and 3 nodes behind HAProxy on PostgreSQL: req/s and CPU per request by process.
bench-cluster: bootstrap
	@scripts/bootstrap.sh $(BENCH_PACKAGES) $(CLUSTER_PACKAGES)
	bench/cluster.sh

## A throwaway PostgreSQL 15 cluster under .build/postgres (port 54329, PGPORT overrides); prints its URL.
postgres:
	@scripts/bootstrap.sh $(POSTGRES_PACKAGES)
	@scripts/postgres.sh start

postgres-stop:
	@scripts/postgres.sh stop

## `make run` on PostgreSQL: that cluster, database shop_demo on it (created once), demo seed, :8080.
run-postgres: build postgres
	@scripts/postgres.sh createdb shop_demo >/dev/null
	export SHOP_DATABASE_URL=$$(scripts/postgres.sh url shop_demo) && \
	$(SHOP) migrate && $(SHOP) seed demo --if-empty && $(DEMO_ENV) exec $(SHOP) serve

## Many nodes: PostgreSQL, database shop_cluster (migrated, demo seed if empty), three `shop serve`
## nodes on :8081-8083 and HAProxy on :8080 (logs, pids, haproxy.cfg in .build/cluster). Idempotent.
cluster: build
	@scripts/bootstrap.sh $(CLUSTER_PACKAGES)
	@scripts/cluster.sh start

## Stops the nodes and HAProxy that `make cluster` started (by their pid files); PostgreSQL keeps running.
cluster-stop:
	@scripts/cluster.sh stop

cluster-status:
	@scripts/cluster.sh status

## Every test against PostgreSQL: the Swift suites (each test shop in a schema of its own), then
## Schemathesis, the reliability suite, the cross-node test (each in a fresh database lab_<random>) and the fault test.
## `make -k test-postgres` runs them all even when one fails.
test-postgres: unit-postgres contract-postgres reliability-postgres cross-node fault

unit-postgres: bootstrap postgres
	$(SWIFT) build --build-tests
	SHOP_TEST_POSTGRES_URL=$$(scripts/postgres.sh url) $(SWIFT) test --skip-build

contract-postgres: build postgres $(CONTRACT_VENV)/bin/schemathesis
	SHOP_LAB_POSTGRES_URL=$$(scripts/postgres.sh url) python3 scripts/contract_test.py $(CONTRACT_VENV)/bin/schemathesis
	SHOP_LAB_POSTGRES_URL=$$(scripts/postgres.sh url) $(CONTRACT_VENV)/bin/python scripts/metrics_check.py

reliability-postgres: build postgres
	SHOP_LAB_POSTGRES_URL=$$(scripts/postgres.sh url) python3 scripts/reliability.py

## Two `shop serve` nodes on one PostgreSQL database: what one node writes, the other reads.
cross-node: build postgres
	SHOP_LAB_POSTGRES_URL=$$(scripts/postgres.sh url) python3 scripts/cross_node_test.py

## A cluster of its own (HAProxy, three nodes, primary + standby) under faults: kill -9 a node
## mid-checkout, stop the primary for 4 s, fill every pool; then the data and the answers are checked.
fault: build
	@scripts/bootstrap.sh $(POSTGRES_PACKAGES) $(CLUSTER_PACKAGES)
	python3 scripts/fault_test.py

clean: cluster-stop postgres-stop
	rm -rf .build
