#!/usr/bin/env python3
"""POST /api/v1/media of a 12-megapixel (4000 x 3000) JPEG, timed by curl: RUNS uploads (default
10), one after the other, after one warm-up; prints each time and the median.

    bench/media.py                         # the release build (build it first: swift build -c release)
    SHOP_BINARY=.build/debug/shop RUNS=5 bench/media.py

The photo is made with libvips (scripts/photos.py: Perlin noise in octaves, a photo's spectrum,
about 1.1 MB at quality 90). Every upload differs by a JPEG comment segment (COM) holding the run's
number, so each is decoded and stored anew (the shop names files by the original's hash and
skips a picture it already has); the pixels are the same. A fresh shop (SQLite) in a temp folder,
uploads per minute raised for the run. Besides curl's wall-clock time it prints the server's CPU
time per upload (utime + stime from /proc/PID/stat, 10 ms ticks): on a machine shared with other
work the wall clock measures the queue for the CPU, the CPU time what an upload costs.
"""
import os
import statistics
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import shoplab  # noqa: E402
from photos import photo  # noqa: E402

shoplab.SHOP = os.environ.get("SHOP_BINARY", os.path.join(ROOT, ".build", "release", "shop"))
RUNS = int(os.environ.get("RUNS", "10"))


def with_comment(jpeg, text):
    comment = text.encode()
    return jpeg[:2] + b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment + jpeg[2:]


def main():
    shop = shoplab.Shop({"SHOP_MEDIA_MAX_UPLOADS_PER_MINUTE": "10000"})
    shop.env["SHOP_MEDIA_PATH"] = os.path.join(shop.dir, "media")
    try:
        source = os.path.join(shop.dir, "photo.jpg")
        photo(source, 4000, 3000, seed=12)
        original = open(source, "rb").read()
        print(f"{shoplab.SHOP}: 4000 x 3000 JPEG of {len(original)} bytes, {RUNS} runs", flush=True)
        shop.cli("migrate")
        shop.start()
        token = shop.register("13700004000")
        times, cpu = [], []
        ticks = os.sysconf("SC_CLK_TCK")

        def cpu_ms():
            with open(f"/proc/{shop.process.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) * 1000 / ticks

        for run in range(RUNS + 1):
            body = os.path.join(shop.dir, f"upload-{run}.jpg")
            with open(body, "wb") as f:
                f.write(with_comment(original, f"run {run}"))
            before = cpu_ms()
            out = subprocess.run(
                ["curl", "-s", "-o", os.path.join(shop.dir, "answer.json"), "-w", "%{http_code} %{time_total}",
                 "-H", "Content-Type: image/jpeg", "-H", f"Authorization: Bearer {token}",
                 "--data-binary", f"@{body}", f"http://127.0.0.1:{shop.port}/api/v1/media"],
                check=True, capture_output=True, text=True).stdout.split()
            if out[0] != "201":
                sys.exit(f"run {run}: {out[0]} {open(os.path.join(shop.dir, 'answer.json')).read()}")
            if run > 0:  # run 0 warms up
                times.append(float(out[1]) * 1000)
                cpu.append(cpu_ms() - before)
        print("wall ms: " + " ".join(f"{t:.0f}" for t in times))
        print("server CPU ms: " + " ".join(f"{t:.0f}" for t in cpu))
        print(f"wall: median {statistics.median(times):.0f} ms, min {min(times):.0f}, max {max(times):.0f}; "
              f"server CPU: median {statistics.median(cpu):.0f} ms; load average {os.getloadavg()[0]:.1f}")
    finally:
        shop.close()


if __name__ == "__main__":
    main()
