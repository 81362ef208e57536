#!/usr/bin/env python3
"""Writes the cold-search benchmark's queries from a catalogue CSV: COUNT (default 40,000) distinct
queries, each to be asked once, in a shuffled order (so neighbours share no cache):

- pieces of the catalogue's own text, 1-6 characters (titles, subtitles, descriptions), and two
  of its words typed together (红玫瑰 + 花篮), including pairs no product holds;
- Chinese characters of the catalogue put together at random (mostly misses that still reach
  the index: each character is common);
- Latin: the catalogue's words in the case people type, product numbers (No.123, no.12), mixed
  with Chinese (love玫瑰);
- misses: characters and words the catalogue does not hold;
- long queries (7-64 characters): description phrases (养护：每天换水，斜剪根部。 repeated), whole
  titles, words strung together;
- the bad input of issue 34: pure punctuation, FTS5 / LIKE syntax (" * % _ \\ OR NEAR), emoji,
  mixed scripts, 64-character runs.

Usage: gen_cold_queries.py CATALOG.csv OUT.txt [COUNT]   Deterministic (fixed seed). Each line of
OUT.txt is the format of bench/gen_queries.py: <weight 1>\\t<url-encoded query>\\t<query>, so the
sequential script and the wrk script read either file. A query never holds a tab, a line break
or a control character, and never passes 64 characters (the API's limit)."""
import csv
import random
import re
import sys
import urllib.parse

catalog, out = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 40_000
rng = random.Random(20261202)
MAX = 64

titles, subtitles, descriptions, numbers = [], [], [], []
with open(catalog, encoding="utf-8") as f:
    seen_products = set()
    for row in csv.DictReader(f):
        if row["product_code"] in seen_products:
            continue
        seen_products.add(row["product_code"])
        titles.append(row["title"])
        subtitles.append(row["subtitle"])
        descriptions.append(row["description"])
        numbers += re.findall(r"No\.(\d+)", row["title"])

texts = titles + subtitles + descriptions
runs = sorted({run for text in texts for run in re.findall(r"[\u4e00-\u9fff]+", text)})
pieces = {size: set() for size in range(1, 7)}
for run in runs:
    for size in range(1, 7):
        for i in range(0, len(run) - size + 1):
            pieces[size].add(run[i:i + size])
pieces = {size: sorted(words) for size, words in pieces.items()}
characters = sorted({c for text in texts for c in text if "\u4e00" <= c <= "\u9fff"})
latin = sorted({w for text in texts for w in re.findall(r"[A-Za-z]+", text)})
# Words of 2-4 characters (what people type), to put together.
words = [w for size in (2, 3, 4) for w in pieces[size]]
punctuation = list("，。：；！？、（）《》“”‘’·…—.,:;!?()[]{}<>\"'`~@#$%^&*-_=+|\\/")
foreign = list("鳄钢琴键盘咖啡豆冰淇淋航空母舰汽车电脑手机茶叶月饼") + ["こんにちは", "사랑", "Привет", "café", "naïve", "ß", "Ω"]
emoji = ["🌹", "💐", "🌷", "❤️", "👍🏻", "🇨🇳"]


def casing(word):
    return rng.choice([word, word.lower(), word.upper(), word.capitalize()])


def clip(text):
    return text[:MAX]


def catalogue_piece():
    size = rng.choices(range(1, 7), weights=[10, 35, 20, 20, 8, 7])[0]
    return rng.choice(pieces[size])


def word_pair():
    return rng.choice(words) + rng.choice(words)


def random_characters():
    return "".join(rng.choice(characters) for _ in range(rng.randint(2, 6)))


def latin_query():
    kind = rng.random()
    number = rng.choice(numbers)
    if kind < 0.3:
        return casing(rng.choice(latin))
    if kind < 0.55:
        return casing("No.") + number[:rng.randint(1, len(number))]
    if kind < 0.7:
        return number[:rng.randint(1, len(number))]
    if kind < 0.85:
        return casing(rng.choice(latin)) + rng.choice(["", " "]) + rng.choice(pieces[rng.randint(1, 3)])
    return rng.choice(pieces[2]) + " " + casing(rng.choice(latin)) + " No." + number


def miss():
    kind = rng.random()
    if kind < 0.4:
        return "".join(rng.choice(foreign[:22]) for _ in range(rng.randint(1, 4)))
    if kind < 0.7:
        return "".join(rng.choice("bcdfghjkmpqvwxz") for _ in range(rng.randint(3, 8)))
    return rng.choice(pieces[2]) + rng.choice(foreign[:22]) + rng.choice(pieces[rng.randint(1, 2)])


def long_query():
    kind = rng.random()
    if kind < 0.3:
        text = rng.choice(descriptions)
        start = rng.randrange(0, max(1, len(text) - 7))
        return clip(text[start:start + rng.randint(7, MAX)])
    if kind < 0.5:
        return clip(rng.choice(titles) + rng.choice(["", " ", "，"]) + rng.choice(subtitles))
    if kind < 0.7:
        return clip("".join(rng.choice(words) for _ in range(rng.randint(3, 20))))
    if kind < 0.85:
        return clip(" ".join(casing(rng.choice(latin)) for _ in range(rng.randint(3, 12))))
    return clip("养护：每天换水，斜剪根部。" * rng.randint(1, 5) + rng.choice(["", "养护", "x"]))


def bad_input():
    kind = rng.random()
    if kind < 0.25:
        return "".join(rng.choice(punctuation) for _ in range(rng.randint(1, MAX)))
    if kind < 0.4:
        return rng.choice(['"', '""', '"玫瑰', '玫瑰"', "*", "玫瑰*", "OR", "玫瑰 OR 百合", "NEAR(玫瑰 百合)",
                           "-玫瑰", "%", "%%", "_", "玫_", "\\", "\\%", "{title}:玫瑰", "^玫瑰", "'; DROP TABLE products; --"]) \
            + rng.choice(["", " ", str(rng.randint(0, 99999))])
    if kind < 0.6:
        return clip("".join(rng.choice([rng.choice(pieces[rng.randint(1, 3)]), rng.choice(latin), rng.choice(emoji),
                                         rng.choice(foreign[22:]), rng.choice(punctuation)])
                            for _ in range(rng.randint(2, 12))))
    if kind < 0.8:
        unit = rng.choice(characters + punctuation + emoji + ["a", "玫瑰", "No."])
        return clip(unit * MAX)
    return clip("".join(rng.choice(pieces[1] + punctuation) for _ in range(MAX)))


makers = [(catalogue_piece, 34), (word_pair, 14), (random_characters, 10), (latin_query, 16), (miss, 8),
          (long_query, 10), (bad_input, 8)]
queries, seen = [], set()
attempts = 0
while len(queries) < count:
    attempts += 1
    if attempts > count * 50:
        sys.exit(f"gen_cold_queries.py: only {len(queries)} distinct queries after {attempts} attempts")
    make = rng.choices([m for m, _ in makers], weights=[w for _, w in makers])[0]
    q = make()
    q = "".join(" " if c in "\t\r\n" or ord(c) < 0x20 or ord(c) == 0x7F else c for c in q).strip()
    # The API trims: a query the server would trim to another one is the same query.
    if not q or len(q) > MAX or q in seen:
        continue
    seen.add(q)
    queries.append(q)
rng.shuffle(queries)
with open(out, "w", encoding="utf-8") as f:
    for q in queries:
        f.write(f"1\t{urllib.parse.quote(q, safe='')}\t{q}\n")
print(f"{len(queries)} distinct queries", file=sys.stderr)
