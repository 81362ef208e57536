"""Schemathesis hooks for the contract run: a signed-in user whose token is fetched by logging in,
and for the operators' desk (`/api/v1/admin`) a staff owner's token, fetched the same way.

The fuzzer may log this token out or reset tokens; a 401 makes Schemathesis fetch a new one
(the provider is re-asked on 401), so signed-in operations keep being reached."""
import json
import os
import urllib.request

import schemathesis

BASE = os.environ["CONTRACT_BASE_URL"]
PHONE = os.environ["CONTRACT_PHONE"]
PASSWORD = os.environ["CONTRACT_PASSWORD"]


ADMIN = "^/api/v1/admin/"


@schemathesis.auth(refresh_interval=60, retry_on=[401]).skip_for(path_regex=ADMIN)
class ShopToken:
    def get(self, case, context):
        request = urllib.request.Request(
            BASE + "/api/v1/auth/login", method="POST",
            data=json.dumps({"phone": PHONE, "password": PASSWORD}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)["token"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.auth(refresh_interval=60, retry_on=[401]).apply_to(path_regex=ADMIN)
class StaffToken:
    def get(self, case, context):
        request = urllib.request.Request(
            BASE + "/api/v1/admin/auth/login", method="POST",
            data=json.dumps({"username": os.environ["CONTRACT_STAFF_USERNAME"],
                             "password": os.environ["CONTRACT_STAFF_PASSWORD"]}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)["token"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
