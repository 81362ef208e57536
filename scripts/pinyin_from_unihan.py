#!/usr/bin/env python3
"""Writes Pinyin/mandarin.tsv, the Mandarin readings product search matches pinyin with, from Unicode's
Unihan database as Debian's `unicode-data` package installs it.

Usage (from the repository root):

    apt-get install -y unicode-data      # 15.0.0-1
    python3 scripts/pinyin_from_unihan.py [/usr/share/unicode/Unihan_Readings.txt.bz2 [Pinyin/mandarin.tsv]]
    python3 scripts/pinyin_from_unihan.py --check   # exit 1 unless the checked-in file is what this writes

What this script decides (nothing else: every reading comes from the source file):

- Characters: the CJK Unified Ideographs block U+4E00..U+9FFF (the "URO", every character a
  catalogue's Simplified or Traditional Chinese text is likely to use) and Extension A
  U+3400..U+4DBF; characters without a reading are left out.
- Readings: `kMandarin` first (the customary reading), then every other reading that modern
  dictionaries give for the character: `kHanyuPinlu` (frequency of use), `kTGHZ2013` (通用规范汉字字典)
  and `kXHC1983` (现代汉语词典), in that order, so a polyphonic character such as 行 (xing, hang,
  heng) or 长 (zhang, chang) has all of them. `kHanyuPinyin` (汉语大字典, many classical readings) is
  used only for a character that none of those fields reads.
- Spelling: tone marks removed (search ignores tones: `meigui`, `méiguī` and `mei gui` are one query),
  `ü` written `v` as phone keyboards type it (绿 lv), lower case; duplicate readings once each, in the
  order above.

The output is UTF-8 with `\n` line ends: a `#` header (source, package version, the source file's
sha256, licence, generator, row count and the sha256 of the data lines, so the shop's tests catch a
hand edit), then one line per character: `character<TAB>reading reading ...`, sorted by code point.
"""

import bz2
import hashlib
import sys
import unicodedata

SOURCE = "/usr/share/unicode/Unihan_Readings.txt.bz2"
OUTPUT = "Pinyin/mandarin.tsv"
PACKAGE = "Debian unicode-data 15.0.0-1"
UNICODE_VERSION = "15.0.0"
GENERATOR = "scripts/pinyin_from_unihan.py"
BLOCKS = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF)]
MODERN = ["kMandarin", "kHanyuPinlu", "kTGHZ2013", "kXHC1983"]
FALLBACK = "kHanyuPinyin"


def fail(message):
    sys.stderr.write(f"pinyin_from_unihan: {message}\n")
    sys.exit(1)


def toneless(reading):
    """A reading without tone marks, ü as v, lower case: the spelling search compares."""
    decomposed = unicodedata.normalize("NFD", reading.lower())
    out = []
    for ch in decomposed:
        if ch == "\u0308":  # the diaeresis of ü (u + U+0308 once decomposed)
            if not out or out[-1] != "u":
                fail(f"unexpected diaeresis in {reading!r}")
            out[-1] = "v"
        elif unicodedata.category(ch) == "Mn":
            continue
        else:
            out.append(ch)
    text = "".join(out)
    if not text.isascii() or not text.isalpha():
        fail(f"unexpected reading {reading!r}")
    return text


def readings_of(field, value):
    """The readings a field's value lists (each field has its own shape)."""
    if field == "kMandarin":
        return value.split()
    if field == "kHanyuPinlu":  # lè(283) yuè(54)
        return [part.split("(")[0] for part in value.split()]
    if field in ("kTGHZ2013", "kXHC1983", "kHanyuPinyin"):  # 0683.040:lè 1430.060:yuè / 10019.020:tiàn,xxx
        out = []
        for part in value.split():
            out += part.split(":", 1)[1].split(",")
        return out
    fail(f"unexpected field {field}")


def generate(source_path):
    raw = open(source_path, "rb").read()
    text = bz2.decompress(raw) if source_path.endswith(".bz2") else raw
    if f"# Unicode version: {UNICODE_VERSION}".encode() not in text[:2000]:
        fail(f"{source_path} is not Unihan {UNICODE_VERSION}")
    fields = {}
    for line in text.decode("utf-8").split("\n"):
        if not line or line.startswith("#"):
            continue
        code, field, value = line.split("\t")
        if field not in MODERN and field != FALLBACK:
            continue
        point = int(code[2:], 16)
        if not any(low <= point <= high for low, high in BLOCKS):
            continue
        fields.setdefault(point, {})[field] = value
    rows = []
    for point in sorted(fields):
        found = fields[point]
        names = [name for name in MODERN if name in found] or [FALLBACK]
        readings = []
        for name in names:
            for reading in readings_of(name, found[name]):
                spelled = toneless(reading)
                if spelled not in readings:
                    readings.append(spelled)
        rows.append(f"{chr(point)}\t{' '.join(readings)}\n")
    data = "".join(rows)
    header = [
        "# Mandarin readings of Chinese characters: character<TAB>readings (space-separated, customary reading first).",
        f"# source: {PACKAGE}, {source_path.rsplit('/', 1)[-1]} (Unihan {UNICODE_VERSION}; sha256 {hashlib.sha256(raw).hexdigest()})",
        "# fields: kMandarin, then kHanyuPinlu, kTGHZ2013, kXHC1983 (kHanyuPinyin only where none of those reads the character)",
        "# blocks: U+3400..U+4DBF, U+4E00..U+9FFF",
        "# licence: Unicode License v3 (Unicode, Inc. license agreement for data files and software; see /usr/share/doc/unicode-data/copyright). Copyright © 1991-2022 Unicode, Inc.",
        "# modified: this file is derived from the Unihan data, not a copy: readings merged per character, tone marks removed, ü written v",
        f"# generator: {GENERATOR} (do not edit by hand: run it again on a newer unicode-data)",
        f"# rows: {len(rows)}",
        f"# rows sha256: {hashlib.sha256(data.encode('utf-8')).hexdigest()}",
    ]
    return "\n".join(header) + "\n" + data


def main(arguments):
    if arguments[:1] == ["--check"]:
        generated = generate(SOURCE)
        current = open(OUTPUT, encoding="utf-8").read()
        if generated != current:
            fail(f"{OUTPUT} is not what {GENERATOR} writes from {SOURCE}: run it again")
        print(f"{OUTPUT}: as generated")
        return
    source = arguments[0] if arguments else SOURCE
    output = arguments[1] if len(arguments) > 1 else OUTPUT
    with open(output, "w", encoding="utf-8", newline="\n") as out:
        out.write(generate(source))


if __name__ == "__main__":
    main(sys.argv[1:])
