#!/usr/bin/env python3
"""Writes a large synthetic catalogue CSV for benchmarks: N SKUs, 4 per product.

Usage: gen_catalog.py OUT.csv [SKUS]   (default 100000). Deterministic (fixed seed)."""
import csv
import random
import sys

out = sys.argv[1]
skus = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
rng = random.Random(20261130)
colours = ["红", "白", "粉", "香槟", "蓝色", "紫色", "黄", "橙色", "渐变", "复古"]
flowers = ["玫瑰", "百合", "郁金香", "向日葵", "康乃馨", "满天星", "绣球", "芍药", "洋桔梗", "雏菊", "多肉", "绿萝"]
forms = ["花束", "花篮", "礼盒", "盆栽", "永生花", "花瓶套装", "桌花", "手捧花"]
words = ["Love", "Mini", "Sweet", "Forever", "Sunny", "Classic"]
categories = [f"{a}/{b}" for a in ["花束", "绿植", "礼盒", "花瓶"] for b in ["经典", "新品", "节日", "企业", "家居"]]
sizes = ["小号", "中号", "大号", "豪华款"]

with open(out, "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f)
    w.writerow(["product_code", "sku_code", "sku_name", "title", "subtitle", "category", "price", "original_price",
                "stock", "description", "cover_url", "image_urls", "attributes", "status"])
    products = skus // 4
    for p in range(products):
        colour, flower, form = rng.choice(colours), rng.choice(flowers), rng.choice(forms)
        title = f"{colour}{flower}{form}" + (f" {rng.choice(words)}" if rng.random() < 0.2 else "") + f" No.{p}"
        subtitle = f"{flower}的花语，{rng.choice(['送恋人', '送妈妈', '送朋友', '犒劳自己'])}"
        description = f"精选{colour}{flower}，{form}造型。" + "养护：每天换水，斜剪根部。" * rng.randint(1, 4)
        code = f"BENCH-{p:06d}"
        base = rng.randint(990, 99900)
        for s in range(4):
            price = base + s * 2000
            w.writerow([code, f"{code}-{s}", sizes[s], title, subtitle, rng.choice(categories) if s == 0 else categories[0],
                        f"{price // 100}.{price % 100:02d}", f"{(price * 12 // 10) // 100}.{(price * 12 // 10) % 100:02d}",
                        rng.randint(0, 500), description, f"https://img.floral.example/bench/{p}.jpg",
                        f"https://img.floral.example/bench/{p}-1.jpg|https://img.floral.example/bench/{p}-2.jpg",
                        '{"花材":"' + flower + '"}', "on_sale"])
    # one SKU with deep stock, for the order placement benchmark
    w.writerow(["BENCH-ORDERS", "BENCH-ORDERS-0", "标准", "压测专用玫瑰花束", "", "花束/经典", "99.00", "129.00", 1000000,
                "用于下单压测", "", "", "{}", "on_sale"])
    # one deep-stock SKU per buyer of the many-buyers order row (bench/run.sh registers 32 buyers)
    for b in range(1, 33):
        w.writerow([f"BENCH-BUYERS-{b}", f"BENCH-BUYERS-{b}", "标准", "压测专用玫瑰花束", "", "花束/经典", "99.00", "129.00",
                    1000000, "用于下单压测", "", "", "{}", "on_sale"])
