#!/usr/bin/env python3
"""Runs Schemathesis against a real `shop serve` on loopback: a fresh database with the demo
seed, a signed-in user with an address and a cart line, every check and every phase with a
fixed seed. Usage: contract_test.py [SCHEMATHESIS] (default .venv-contract/bin/schemathesis).
On PostgreSQL when SHOP_LAB_POSTGRES_URL names a server (make test-postgres; see shoplab.py)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shoplab import ROOT, Shop  # noqa: E402

schemathesis = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".venv-contract", "bin", "schemathesis")
max_examples = os.environ.get("CONTRACT_MAX_EXAMPLES", "25")

shop = Shop({"SHOP_VERIFICATION_COOLDOWN_SECONDS": "1", "SHOP_VERIFICATION_DAILY_LIMIT_PER_IP": "100000",
             "SHOP_VERIFICATION_DAILY_LIMIT_PER_PHONE": "10000", "SHOP_AUTH_MAX_FAILURES_PER_IP": "100000",
             "SHOP_SEARCH_MAX_PER_MINUTE_PER_IP": "100000"})
try:
    print(f"contract: shop serve on {shop.engine}", flush=True)
    shop.cli("migrate")
    shop.cli("seed", "demo")
    shop.start()
    phone, password = "13700003000", "contract-password"
    token = shop.register(phone, password)
    shop.cli("authors", "grant", phone)  # so that publishing and editing articles are reached too
    shop.add_address(token)
    shop.request("POST", "/api/v1/cart/items", {"sku_id": 1, "quantity": 1}, token=token)
    # an owner for the operators' desk: its routes run last, in a second pass of their own, so what
    # the fuzzer does there as the owner (bans, cancels) cannot spoil the buyer's routes
    staff_username, staff_password = "contract-owner", "contract-staff-password"
    shop.cli("staff", "add", staff_username, "--role", "owner", "--password-stdin", input=staff_password + "\n")
    base = [
        schemathesis, "--config-file", os.path.join(ROOT, "scripts", "schemathesis.toml"), "run", os.path.join(ROOT, "openapi.json"),
        "--url", f"http://127.0.0.1:{shop.port}",
        "--checks", "all",
        "--phases", "examples,coverage,fuzzing,stateful",
        "--seed", "20261130",
        "--max-examples", max_examples,
        "--generation-database", "none",
        "--request-timeout", "10",
        "--workers", "1",
        "--no-color",
    ]
    env = dict(os.environ, SCHEMATHESIS_HOOKS="contract_hooks", PYTHONPATH=os.path.join(ROOT, "scripts"),
               CONTRACT_BASE_URL=f"http://127.0.0.1:{shop.port}", CONTRACT_PHONE=phone, CONTRACT_PASSWORD=password,
               CONTRACT_STAFF_USERNAME=staff_username, CONTRACT_STAFF_PASSWORD=staff_password)
    for name, selection in [("buyers", ["--exclude-path-regex", "^/api/v1/admin/"]),
                            ("admin", ["--include-path-regex", "^/api/v1/admin/"])]:
        command = base + selection + ["--report", "junit", "--report-dir", os.path.join(shop.dir, "report-" + name)]
        print("+ " + " ".join(command), flush=True)
        result = subprocess.run(command, cwd=ROOT, env=env)
        if result.returncode != 0:
            break
    if result.returncode != 0:
        print(f"server log: {os.path.join(shop.dir, 'serve.log')}")
        shop.kill()
        with open(os.path.join(shop.dir, "serve.log"), errors="replace") as f:
            lines = [line for line in f if "ERROR" in line]
        print("".join(lines[-20:]))
    sys.exit(result.returncode)
finally:
    shop.stop()
    shop.close()
