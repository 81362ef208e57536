# Floral Shop: `make run` and `make test` are all a new machine needs.
SWIFT ?= swift
BUILD_PACKAGES := libsqlite3-dev libssl-dev libargon2-dev libmicrohttpd-dev libxml2 pkg-config
BENCH_PACKAGES := wrk curl
SHOP := .build/debug/shop

.PHONY: all bootstrap build run test bench clean

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

## Build and run every test.
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## Release build + wrk on loopback; see bench/RESULTS.md.
bench: bootstrap
	@scripts/bootstrap.sh $(BENCH_PACKAGES)
	bench/run.sh

clean:
	rm -rf .build
