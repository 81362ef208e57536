#!/usr/bin/env python3
"""Writes the search benchmark's query mix from a catalogue CSV: at least 200 distinct queries of
1-6 characters drawn from the catalogue's own words (titles, subtitles, descriptions), Chinese and
Latin (in mixed case), plus some that match nothing, each with a Zipf weight (1/rank; words of 2-4
characters take the top ranks, as in a real search log).

Usage: gen_queries.py CATALOG.csv OUT.txt   Deterministic. Each line of OUT.txt:
  <weight>\t<url-encoded query>\t<query>"""
import collections
import csv
import random
import re
import sys
import urllib.parse

catalog, out = sys.argv[1], sys.argv[2]
rng = random.Random(20261201)
counts = collections.Counter()
with open(catalog, encoding="utf-8") as f:
    for row in csv.DictReader(f):
        for field in ("title", "subtitle", "description"):
            text = row.get(field) or ""
            # Chinese runs: every substring of 1-4 characters (words and pieces of words).
            for run in re.findall(r"[\u4e00-\u9fff]+", text):
                for size in (1, 2, 3, 4):
                    for i in range(0, len(run) - size + 1):
                        counts[run[i:i + size]] += 1
            # Latin words (and "No.<n>" product numbers), up to 6 characters.
            for word in re.findall(r"[A-Za-z][A-Za-z.]*\d*", text):
                if 1 <= len(word) <= 6:
                    counts[word] += 1

chinese = [w for w, _ in counts.most_common() if re.fullmatch(r"[\u4e00-\u9fff]+", w)]
latin = [w for w, _ in counts.most_common() if not re.fullmatch(r"[\u4e00-\u9fff]+", w)]
# Mostly the common words people type, a few rarer ones, by length.
picked = []
for size, take in ((1, 25), (2, 70), (3, 45), (4, 40)):
    words = [w for w in chinese if len(w) == size]
    picked += words[:take * 3 // 4] + rng.sample(words[take * 3 // 4:], min(take // 4, max(len(words) - take * 3 // 4, 0)))
# Five- and six-character queries: two words together, as typed ("红玫瑰花束").
pairs = [a + b for a in chinese[:60] for b in chinese[:60] if len(a) + len(b) in (5, 6) and a != b]
picked += rng.sample(pairs, min(30, len(pairs)))
# Latin words in the case people type them.
for word in latin[:20]:
    picked.append(rng.choice([word, word.lower(), word.upper()]))
# Queries that find nothing.
picked += ["巧克力", "钢琴", "咖啡豆", "键盘", "zzz", "qwerty", "鳄", "航空母舰", "tulipz", "冰淇淋"]

seen = set()
queries = []
for q in picked:
    if q not in seen and 1 <= len(q) <= 6:
        seen.add(q)
        queries.append(q)
assert len(queries) >= 200, f"only {len(queries)} distinct queries"
# Zipf weights, in the order a shop's search log has them: words of 2-4 characters (what people
# type: 玫瑰, 花束, 香槟玫瑰) take the top ranks, then the rest (single characters, long queries,
# Latin, no-hit ones), each group shuffled.
words = [q for q in queries if re.fullmatch(r"[\u4e00-\u9fff]{2,4}", q)]
rest = [q for q in queries if q not in set(words)]
rng.shuffle(words)
rng.shuffle(rest)
queries = words + rest
with open(out, "w", encoding="utf-8") as f:
    for rank, q in enumerate(queries, start=1):
        f.write(f"{1.0 / rank:.6f}\t{urllib.parse.quote(q)}\t{q}\n")
print(f"{len(queries)} queries", file=sys.stderr)
