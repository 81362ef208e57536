"""(e) media (issue 29): decompression bombs against a real `shop serve`, memory measured.

Eight bombs are POSTed to /api/v1/media at once by one signed-in buyer: PNGs whose headers promise
1 x 100,000,000, 100,000,000 x 1 and 20000 x 20000 pixels (a few hundred KiB each, 300-400 MB
decoded), a JPEG whose frame header says 60000 x 60000, and PNGs of 6000 x 6000 (36 M pixels, under
media.max_pixels, so they are decoded) cut off part-way. Each must be refused in the error shape
(413 payload_too_large from the header, 415 unsupported_media_type for the damaged ones), nothing
may be written to media.path, and the server's peak RSS (VmHWM) may grow by at most
MEDIA_RSS_GROWTH_MIB over its peak after a warm-up upload.

The bound: a bomb decoded whole is 34 MiB (the smallest, 6000 x 6000 grey, as the loader gives it;
103 MiB as the sRGB the pipeline makes) to 1.1 GiB (20000 x 20000 in sRGB); the bodies are about
2 MiB together. libvips decodes two pictures at once (the media bulkhead), each holding a strip of
rows and one 1280 x 1280 rendition at most (4.7 MiB): about 10 MiB each, 28 MiB measured with the
bodies and the queue (debug build, 2026-12-02). 40 MiB leaves room for that and still fails if any
one bomb is decoded whole into memory.
"""
import os
import tempfile

from photos import jpeg_bomb, photo, png_bomb
from shoplab import Shop, error_code

MEDIA_RSS_GROWTH_MIB = 40


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def media_files(folder):
    found = []
    for root, _, files in os.walk(folder):
        found += [os.path.relpath(os.path.join(root, name), folder) for name in files]
    return sorted(found)


def bombs(small_jpeg):
    whole = png_bomb(6000, 6000)
    return [
        ("PNG 1 x 100,000,000 RGB", png_bomb(1, 100_000_000, channels=3), "image/png", {413}),
        ("PNG 100,000,000 x 1", png_bomb(100_000_000, 1), "image/png", {413}),
        ("PNG 20000 x 20000", png_bomb(20_000, 20_000), "image/png", {413}),
        ("PNG 20000 x 20000 RGB", png_bomb(20_000, 20_000, channels=3), "image/png", {413}),
        ("JPEG 60000 x 60000", jpeg_bomb(small_jpeg), "image/jpeg", {413}),
        ("PNG 1 x 100,000,000 sent as WebP", png_bomb(1, 100_000_000), "image/webp", {413}),
        ("PNG 6000 x 6000 cut at 3/4", png_bomb(6000, 6000, truncate_to=len(whole) * 3 // 4), "image/png", {415}),
        ("PNG 6000 x 6000 cut at 1/2", png_bomb(6000, 6000, truncate_to=len(whole) // 2), "image/png", {415}),
    ]


def media_suite(check, all_at_once):
    print("(e) media: 8 decompression bombs at once", flush=True)
    media = tempfile.mkdtemp(prefix="floral-media-")
    shop = Shop({"SHOP_MEDIA_PATH": media})
    try:
        small = os.path.join(shop.dir, "small.jpg")
        photo(small, 640, 480, seed=5)
        cases = bombs(small)
        print("     bodies: " + ", ".join(f"{name} {len(body) // 1024} KiB" for name, body, _, _ in cases), flush=True)
        shop.cli("migrate")
        shop.start()
        token = shop.register("13700003000")
        with open(small, "rb") as f:
            status, body, _ = shop.request("POST", "/api/v1/media", f.read(), token=token,
                                           headers={"Content-Type": "image/jpeg"})
        check("a real photo uploads first (warm-up)", status == 201, f"{status} {body}")
        before_files = media_files(media)
        before = peak_rss_kib(shop.process.pid)

        def post(body, kind):
            return lambda: shop.request("POST", "/api/v1/media", body, token=token,
                                        headers={"Content-Type": kind}, timeout=60)

        answers = all_at_once([post(body, kind) for _, body, kind, _ in cases])
        after = peak_rss_kib(shop.process.pid)
        for (name, _, _, wanted), (status, body, _) in zip(cases, answers):
            code = error_code(body)
            expected_code = {413: "payload_too_large", 415: "unsupported_media_type"}.get(status)
            check(f"{name}: refused {sorted(wanted)} in the error shape",
                  status in wanted and code == expected_code and isinstance(body["error"].get("message"), str),
                  f"{status} {body}")
        check("nothing was written to media.path", media_files(media) == before_files,
              str(sorted(set(media_files(media)) - set(before_files))))
        growth = (after - before) / 1024
        print(f"     peak RSS {before // 1024} MiB after the warm-up, {after // 1024} MiB after the bombs", flush=True)
        check(f"peak RSS grew under {MEDIA_RSS_GROWTH_MIB} MiB", growth < MEDIA_RSS_GROWTH_MIB, f"{growth:.1f} MiB")
        status, _, _ = shop.request("GET", "/healthz")
        check("the server still answers", status == 200)
    finally:
        shop.close()
        for name in media_files(media):
            os.remove(os.path.join(media, name))
        for root, dirs, _ in os.walk(media, topdown=False):
            for d in dirs:
                os.rmdir(os.path.join(root, d))
        os.rmdir(media)


HOME_PAGE_BUDGET = 300_000   # bytes: issue 29's target for the home page with 20 imported photos
HOME_PHOTOS = 20


def fetch(port, path, headers=None):
    """(status, headers, raw body bytes) of one GET, as a browser sends it (gzip accepted)."""
    import gzip
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": "gzip", **(headers or {})})
        response = conn.getresponse()
        raw = response.read()
        head = {k.lower(): v for k, v in response.getheaders()}
        body = gzip.decompress(raw) if head.get("content-encoding") == "gzip" else raw
        return response.status, head, raw, body
    finally:
        conn.close()


def webp_size(data):
    """Width and height from a lossy or lossless WebP's first frame header, or None."""
    import struct
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    kind = data[12:16]
    if kind == b"VP8 ":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if kind == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8X":
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def home_page_suite(check):
    """20 products imported from a catalogue CSV whose covers are local 4000 x 3000 photos; the
    storefront's home page list (GET /products?page=1&per_page=20, as shop.js asks) and every
    thumbnail it names, fetched as a browser would (Accept: image/webp, gzip): under 300 KB in all."""
    import json
    print(f"(e) media: the home page with {HOME_PHOTOS} imported 4000 x 3000 photos", flush=True)
    shop = Shop()
    shop.env["SHOP_MEDIA_PATH"] = os.path.join(shop.dir, "media")
    try:
        photos = os.path.join(shop.dir, "photos")
        os.makedirs(photos)
        catalog = os.path.join(photos, "catalog.csv")
        with open(catalog, "w", encoding="utf-8") as f:
            f.write("product_code,sku_code,sku_name,title,category,price,stock,cover_url\n")
            for i in range(HOME_PHOTOS):
                photo(os.path.join(photos, f"photo-{i}.jpg"), 4000, 3000, seed=100 + i)
                f.write(f"PHOTO-{i},PHOTO-{i}-1,一束,实拍花束{i},花束/实拍,{99 + i}.00,10,photo-{i}.jpg\n")
        originals = sum(os.path.getsize(os.path.join(photos, f"photo-{i}.jpg")) for i in range(HOME_PHOTOS))
        shop.cli("migrate")
        imported = shop.cli("import", "catalog", catalog, check=False)
        check("the catalogue with 20 local photos imports", imported.returncode == 0, imported.stderr[-300:])
        shop.start()
        status, head, raw, body = fetch(shop.port, "/api/v1/products?sort=newest&page=1&per_page=20")
        items = json.loads(body)["items"] if status == 200 else []
        thumbnails = [item.get("cover_thumbnail_url") for item in items]
        check("the first page lists the 20 photos, each with a /media/ thumbnail",
              len(items) == HOME_PHOTOS and all(t and t.startswith("/media/") and t.endswith("-480.jpg") for t in thumbnails),
              f"{status} {thumbnails[:3]}")
        total, sizes, problems = len(raw), [], []
        for url in thumbnails:
            t_status, t_head, t_raw, t_body = fetch(shop.port, url, {"Accept": "image/avif,image/webp,image/apng,*/*;q=0.8"})
            total += len(t_raw)
            sizes.append(len(t_raw))
            size = webp_size(t_body)
            if t_status != 200 or t_head.get("content-type") != "image/webp" or not size or max(size) > 480 \
                    or b"Exif" in t_body:
                problems.append((url, t_status, t_head.get("content-type"), size))
        print(f"     originals {originals // 1024} KiB; list {len(raw)} B; thumbnails {min(sizes, default=0)}-"
              f"{max(sizes, default=0)} B; total {total} B", flush=True)
        check("every thumbnail is a WebP of at most 480 px without EXIF", items and not problems, str(problems[:3]))
        check(f"the home page's list and thumbnails are under {HOME_PAGE_BUDGET // 1000} KB",
              len(sizes) == HOME_PHOTOS and total < HOME_PAGE_BUDGET, f"{total} B")
    finally:
        shop.close()
