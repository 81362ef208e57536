#!/usr/bin/env python3
"""Draws the demo shop's pictures: small flat SVG illustrations made for this project.

    python3 scripts/gen_demo_images.py           # write the pictures and point Examples/ at them
    python3 scripts/gen_demo_images.py --check   # exit 1 if the committed files differ from a fresh run

Writes Sources/ShopAPI/Media/demo/*.svg (built into `shop`, served at /media/demo/NAME.svg) and
rewrites the picture URLs of Examples/catalog.csv, articles.jsonl and authors.jsonl to those
relative URLs; every other byte of the examples stays as it was. The output depends on nothing but
this file (no randomness, no clock), so running it twice changes nothing.

Each product gets a scene (a bouquet, a potted plant, a vase, a gift box…) drawn from the flowers
and colours it names; its first picture is the scene and, where the example lists more than one
image, the second a close-up. Articles get a wide cover, authors a round avatar.
"""

import argparse
import csv
import io
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Sources" / "ShopAPI" / "Media" / "demo"
URL = "/media/demo/"
CATALOG_PATH = ROOT / "Examples" / "catalog.csv"
ARTICLES_PATH = ROOT / "Examples" / "articles.jsonl"
AUTHORS_PATH = ROOT / "Examples" / "authors.jsonl"


def num(x):
    """A coordinate as short text: one decimal at most, no trailing or leading zero (`.5`, `-.5`)."""
    r = round(x, 1)
    text = str(int(r)) if r == int(r) else f"{r:.1f}"
    return text.replace("0.", ".", 1) if text.startswith(("0.", "-0.")) else text


def pts(*xy):
    """Numbers for path data, as SVG allows them: a minus sign or a leading dot needs no space before it."""
    out, last = "", ""
    for v in xy:
        text = num(v)
        out += text if not last or text[0] == "-" or (text[0] == "." and "." in last) else " " + text
        last = text
    return out


# ---- colours ------------------------------------------------------------------------------
# A flower colour: petal fill, the darker line inside, and a light highlight.
COLOURS = {
    "red": ("#d8364f", "#9e1f36", "#f06d80"),
    "wine": ("#a3223c", "#6e1426", "#cf4a63"),
    "pink": ("#f29bb0", "#d0647f", "#fbc9d5"),
    "rose": ("#ec7b96", "#c14d6b", "#f7b0c1"),
    "peach": ("#f7b48f", "#d9825e", "#fcd6bf"),
    "champagne": ("#f1d2b0", "#c99e77", "#faeadb"),
    "white": ("#fbf8f4", "#d9cfc6", "#ffffff"),
    "cream": ("#f6ecd2", "#d6c39a", "#fffaf0"),
    "yellow": ("#f7c531", "#d69a12", "#fde07c"),
    "orange": ("#f39a3d", "#cf6c1b", "#f9c27f"),
    "blue": ("#5d8fd6", "#345fa6", "#9cc0ee"),
    "sky": ("#9fc4ec", "#6a93c7", "#cfe2f7"),
    "lavender": ("#b8a6e0", "#8672bd", "#ddd2f4"),
    "purple": ("#9b6fc4", "#6c4896", "#c6a8e4"),
    "green": ("#7fb069", "#4f7f3f", "#b4d89f"),
}
LEAF = "#6f9e5f"
LEAF_DARK = "#4d7a43"
STEM = "#5f8a4f"

# Backgrounds: a soft two-stop gradient per mood.
BACKGROUNDS = {
    "blush": ("#fde9ee", "#f7d3dc"),
    "cream": ("#fbf4ea", "#f3e3cf"),
    "mint": ("#eaf5ec", "#d3ead8"),
    "sky": ("#eaf2fb", "#d4e3f4"),
    "lilac": ("#f1ecfa", "#e0d6f2"),
    "butter": ("#fdf6dc", "#f6e7b0"),
    "sand": ("#f6efe6", "#e8dccb"),
    "rosewood": ("#f7e2e2", "#ebc6c9"),
}


# ---- flower heads: each drawn around (0, 0) at about radius 10 -------------------------------
def petals(count, inner, outer, width, turn=0):
    """A ring of pointed petals as one path: each from radius `inner` out to `outer`, `width` wide."""
    d = []
    for i in range(count):
        a = math.radians(turn + i * 360 / count - 90)
        cos, sin = math.cos(a), math.sin(a)
        mid = (inner + outer) / 2

        def at(r, side):
            return pts(r * cos - side * sin, r * sin + side * cos)
        d.append(f"M{at(inner, 0)}Q{at(mid, width)} {at(outer, 0)}Q{at(mid, -width)} {at(inner, 0)}Z")
    return "".join(d)


def dots(points, r, fill, stroke=None, width=.4):
    """Circles of one radius and paint, in one group."""
    paint = f' fill="{fill}"' + (f' stroke="{stroke}" stroke-width="{width}"' if stroke else "")
    circles = "".join(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}"/>' for x, y in points)
    return f"<g{paint}>{circles}</g>"


def head_rose(c):
    base, dark, light = COLOURS[c]
    return (f'<circle r="10" fill="{base}"/><circle cx="-2" cy="-2" r="6" fill="{light}" opacity=".45"/>'
            f'<path d="M-6 0a6 6 0 1 1 6 6M-2.5 0a2.6 2.6 0 1 1 2.6 2.6M-9 3q4 6 11 5" fill="none" stroke="{dark}" '
            f'stroke-width="1.4" stroke-linecap="round"/>')


def head_tulip(c):
    base, dark, light = COLOURS[c]
    return (f'<path d="M-8-7C-10 5-5 10 0 10S10 5 8-7L4-2 0-9-4-2Z" fill="{base}"/>'
            f'<path d="M-4-2 0-9 4-2C4 5-4 5-4-2Z" fill="{light}" opacity=".7"/>'
            f'<path d="M0-2V8" stroke="{dark}" stroke-width="1" opacity=".5"/>')


def head_lily(c):
    base, dark, light = COLOURS[c]
    stamens = [(5 * math.cos(math.radians(a)), 5 * math.sin(math.radians(a))) for a in (30, 100, 170, 240, 310)]
    return (f'<path d="{petals(6, 0, 13, 4.6)}" fill="{base}" stroke="{dark}" stroke-width=".6"/>'
            f'<path d="' + "".join(f"M0 0L{pts(x, y)}" for x, y in stamens) + f'" stroke="{dark}" stroke-width=".8"/>'
            f'<circle r="2" fill="{light}"/>' + dots(stamens, 1, "#b5532e"))


def head_sunflower(c="yellow"):
    base, dark, _ = COLOURS[c]
    return (f'<path d="{petals(15, 4, 12.4, 3.4)}" fill="{base}" stroke="{dark}" stroke-width=".5"/>'
            f'<circle r="6" fill="#6b3f1f"/><circle r="4" fill="#8a5a2b"/><circle r="1.6" fill="#6b3f1f"/>')


def ruffle(r_out, r_in, count, rotate=0):
    points = []
    for i in range(count * 2):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rotate + i * 180 / count)
        points.append(pts(r * math.cos(a), r * math.sin(a)))
    return "M" + "L".join(points) + "Z"


def head_carnation(c):
    base, dark, light = COLOURS[c]
    return (f'<path d="{ruffle(10, 8, 14)}" fill="{base}"/><path d="{ruffle(6.5, 5, 10, 9)}" fill="{light}" opacity=".8"/>'
            f'<path d="{ruffle(3.5, 2.4, 7)}" fill="{dark}" opacity=".6"/>')


def head_daisy(c="white", centre="#f2b632"):
    base, dark, _ = COLOURS[c]
    return f'<path d="{petals(12, 1.6, 10.4, 2.8)}" fill="{base}" stroke="{dark}" stroke-width=".5"/><circle r="3.2" fill="{centre}"/>'


def head_hydrangea(c):
    base, dark, light = COLOURS[c]
    spots = [(0, 0), (-5, -4), (5, -4), (-6, 3), (6, 3), (0, -7), (0, 6), (-3, 9), (3, 9)]
    return (dots(spots[1::2], 3.6, base, dark) + dots(spots[::2], 3.6, light, dark)
            + f'<path d="' + "".join(f"M{pts(x - .8, y)}h1.6" for x, y in spots) + f'" stroke="{dark}" stroke-width="1.2"/>')


def head_peony(c):
    base, dark, light = COLOURS[c]
    return (f'<path d="{ruffle(11, 9.5, 9)}" fill="{base}" stroke-linejoin="round" stroke="{base}" stroke-width="2"/>'
            f'<path d="{ruffle(7.5, 6, 8, 11)}" fill="{light}"/><circle r="3.6" fill="{base}"/>'
            f'<path d="M-3-1q3-3 6 0M-2 2q2 2 4 0" fill="none" stroke="{dark}" stroke-width=".9"/>')


def head_eustoma(c):
    base, dark, light = COLOURS[c]
    return (f'<path d="M-9-3C-9 7-4 10 0 10S9 7 9-3C6 1 3 0 0-6-3 0-6 1-9-3Z" fill="{base}"/>'
            f'<path d="M-5 2C-3 6 3 6 5 2 3 4-3 4-5 2Z" fill="{light}"/><path d="M0-4V6" stroke="{dark}" stroke-width=".8"/>')


def head_tiny(c):
    """Baby's breath and other sprays: a few small dots."""
    base, dark, _ = COLOURS[c]
    return dots(((0, 0), (-5, -3), (5, -2), (-2, -7), (3, 5), (-6, 4), (6, -7)), 2, base, dark)


def head_orchid(c):
    base, dark, light = COLOURS[c]
    return (f'<ellipse cx="-5.5" cy="-1" rx="5.5" ry="6" fill="{base}"/><ellipse cx="5.5" cy="-1" rx="5.5" ry="6" fill="{base}"/>'
            f'<ellipse cy="-7" rx="3.4" ry="4.6" fill="{light}"/><ellipse cx="-3" cy="6" rx="2.6" ry="4" fill="{light}"/>'
            f'<ellipse cx="3" cy="6" rx="2.6" ry="4" fill="{light}"/><path d="M-2 1Q0 7 2 1Z" fill="{dark}"/>'
            f'<circle cy="-.5" r="1.2" fill="#f5d34a"/>')


def head_spike(c):
    """Delphinium or lavender: a column of small florets."""
    base, dark, light = COLOURS[c]
    return f'<g stroke="{dark}" stroke-width=".4">' + "".join(
        f'<circle cx="{num((-1) ** i * 2)}" cy="{num(9 - i * 4.2)}" r="{num(3.6 - i * .35)}" fill="{base if i % 2 else light}"/>'
        for i in range(6)) + "</g>"


def head_wheat(c="cream"):
    base, dark, _ = COLOURS[c]
    grains = "".join(f"M{pts(s * .6, y)}q{num(s * 4)}-1 {num(s * 3)}-5q{num(-s * 3)} 1 {num(-s * 3)} 5Z" for y in range(-6, 9, 3) for s in (-1, 1))
    return f'<path d="{grains}" fill="{base}" stroke="{dark}" stroke-width=".5"/>'


def head_berry(c="red"):
    base, dark, _ = COLOURS[c]
    return dots(((0, 0), (-4, 2), (3, 3), (1, -4)), 2.4, base, dark, .5)


def head_rosette(c, tips=None):
    """A succulent seen from above and a little to the side."""
    base, dark, light = COLOURS[c]
    rings = "".join(f'<path d="{petals(count, 0, length, width, ring * 25)}" fill="{(base, light, base)[ring]}"/>'
                    for ring, (count, length, width) in enumerate(((7, 10.5, 3.4), (6, 7.5, 3), (4, 4.5, 2.4))))
    return f'<g transform="scale(1 .62)" stroke="{tips or dark}" stroke-width=".5">{rings}</g>'


HEADS = {"rose": head_rose, "tulip": head_tulip, "lily": head_lily, "sunflower": head_sunflower, "carnation": head_carnation,
         "daisy": head_daisy, "hydrangea": head_hydrangea, "peony": head_peony, "eustoma": head_eustoma, "tiny": head_tiny,
         "orchid": head_orchid, "spike": head_spike, "wheat": head_wheat, "berry": head_berry, "rosette": head_rosette,
         "bear": lambda c: head_rosette(c, tips="#c8354a")}


class Drawing:
    """One SVG: heads defined once each and placed with <use>, then the scene's shapes in order.
    Leaves drawn one after another become one path per colour (most of a file is leaves)."""

    def __init__(self, width=200, height=200):
        self.width, self.height = width, height
        self.defs = {}
        self.parts = []
        self.leaves = {}

    def head(self, kind, colour, x, y, scale=1.0, rotate=0):
        key = f"{kind}-{colour}"
        if key not in self.defs:
            self.defs[key] = (f"h{len(self.defs)}", HEADS[kind](colour))
        transform = f"translate({pts(round(x), round(y))})" + (f"scale({num(scale)})" if scale != 1 else "") + (f"rotate({rotate})" if rotate else "")
        self.add(f'<use href="#{self.defs[key][0]}" transform="{transform}"/>')

    def leaf(self, x, y, length, angle, colour):
        """A pointed leaf from (x, y), `length` long, pointing at `angle` degrees."""
        a = math.radians(angle)
        cos, sin = math.cos(a), math.sin(a)

        def at(u, v):
            return pts(round(x + u * cos - v * sin), round(y + u * sin + v * cos))
        self.leaves.setdefault(colour, []).append(
            f"M{at(0, 0)}Q{at(length / 2, -length / 4)} {at(length, 0)}Q{at(length / 2, length / 4)} {at(0, 0)}Z")

    def add(self, svg):
        for colour, paths in self.leaves.items():
            self.parts.append(f'<path d="{"".join(paths)}" fill="{colour}"/>')
        self.leaves = {}
        self.parts.append(svg)

    def body(self):
        self.add("")
        return "".join(self.parts)

    def svg(self, background, transform=None):
        """The whole file; `transform` (a close-up) moves everything but the background."""
        top, bottom = BACKGROUNDS[background]
        defs = ('<linearGradient id="bg" x2="0" y2="1">'
                f'<stop offset="0" stop-color="{top}"/><stop offset="1" stop-color="{bottom}"/></linearGradient>'
                + "".join(f'<g id="{name}">{shape}</g>' for name, shape in self.defs.values()))
        body = self.body()
        if transform:
            body = f'<g transform="{transform}">{body}</g>'
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}">'
                f'<defs>{defs}</defs><rect width="{self.width}" height="{self.height}" fill="url(#bg)"/>{body}</svg>\n')


# ---- scene pieces ---------------------------------------------------------------------------
def leaf(d, x, y, length, angle, colour=LEAF):
    d.leaf(x, y, length, angle, colour)


def stems(d, tops, bottom, colour=STEM, width=2.2):
    path = "".join(f"M{pts(*top)}L{pts(*bottom)}" for top in tops)
    d.add(f'<path d="{path}" stroke="{colour}" stroke-width="{width}" stroke-linecap="round"/>')


def dome(count, cx=100, cy=78, spread=44, rise=26):
    """Where `count` heads sit in a rounded bunch, back row first."""
    rows = [[0]] if count == 1 else [[-1, 1]] if count == 2 else [[-1, 0, 1]] if count == 3 else \
        [[-1.5, -.5, .5, 1.5]] if count == 4 else [[-1, 0, 1], [-.5, .5]] if count == 5 else \
        [[-1.5, -.5, .5, 1.5], [-.5, .5]] if count == 6 else [[-1, 0, 1], [-1.5, -.5, .5, 1.5]]
    places = []
    for r, row in enumerate(rows):
        for s in row:
            places.append((cx + s * spread / 1.6, cy - rise * (1 - abs(s) / 2.2) + r * 18))
    return places


def bouquet(d, flowers, wrap, ribbon, fillers=(), spread=44):
    """A hand-tied bouquet in a paper cone. `flowers`: [(kind, colour)] in placement order."""
    paper, paper_dark = wrap
    places = dome(len(flowers), spread=spread)
    d.add('<ellipse cx="100" cy="186" rx="44" ry="6" fill="#000" opacity=".06"/>')
    d.add(f'<path d="M44 66L100 184 156 66Q100 48 44 66Z" fill="{paper_dark}"/>')
    stems(d, [(x, y + 10) for x, y in places], (100, 170))
    for i, (x, y) in enumerate(places):
        leaf(d, x, y + 6, 22, (-150 if x < 100 else -30) + i * 7, LEAF if i % 2 else LEAF_DARK)
    for kind, colour, x, y in fillers:
        d.head(kind, colour, x, y, 1.1)
    for (kind, colour), (x, y) in zip(flowers, places):
        d.head(kind, colour, x, y, 1.7)
    d.add(f'<path d="M36 92L100 184 164 92Q130 112 100 104 70 112 36 92Z" fill="{paper}"/>'
          f'<path d="M100 104L100 184" stroke="{paper_dark}" stroke-width="1.2" opacity=".6"/>')
    d.add(f'<path d="M100 146q-22-16-24-2t24 2q22-16 24-2t-24 2l-10 22m10-22 10 22" fill="none" stroke="{ribbon}" '
          f'stroke-width="3.2" stroke-linejoin="round" stroke-linecap="round"/><circle cx="100" cy="146" r="3.4" fill="{ribbon}"/>')


def bucket(d, flowers, colour):
    places = dome(len(flowers), cy=88, spread=40)
    d.add('<ellipse cx="100" cy="184" rx="46" ry="6" fill="#000" opacity=".06"/>')
    for i, (x, y) in enumerate(places):
        leaf(d, x, y + 4, 20, -150 if x < 100 else -30, LEAF if i % 2 else LEAF_DARK)
    for (kind, c), (x, y) in zip(flowers, places):
        d.head(kind, c, x, y, 1.6)
    d.add(f'<path d="M58 112H142L132 182H68Z" fill="{colour}"/><path d="M56 104H144V116H56Z" fill="{colour}" '
          f'stroke="#000" stroke-opacity=".08"/><path d="M72 130h56" stroke="#fff" stroke-width="3" opacity=".5"/>')


def single(d, kind, colour, ribbon):
    d.add('<ellipse cx="100" cy="186" rx="26" ry="5" fill="#000" opacity=".06"/>')
    d.add(f'<path d="M100 70Q96 130 104 184" fill="none" stroke="{STEM}" stroke-width="3"/>')
    leaf(d, 100, 110, 30, -140)
    leaf(d, 101, 132, 26, -35, LEAF_DARK)
    d.head(kind, colour, 100, 60, 3)
    d.add(f'<path d="M102 150q-16-12-18-2t18 2q16-12 18-2t-18 2l-8 16m8-16 8 16" fill="none" stroke="{ribbon}" '
          f'stroke-width="2.6" stroke-linecap="round"/>')


def pot(d, colour, top=128, width=70, height=56, rim="#000"):
    half, low = width / 2, width / 2 - 9
    d.add(f'<ellipse cx="100" cy="{top + height + 2}" rx="{num(half + 8)}" ry="5" fill="#000" opacity=".07"/>'
          f'<path d="M{pts(100 - half, top)}H{num(100 + half)}L{pts(100 + low, top + height)}H{num(100 - low)}Z" fill="{colour}"/>'
          f'<path d="M{pts(100 - half - 4, top - 8)}H{num(100 + half + 4)}V{num(top + 4)}H{num(100 - half - 4)}Z" fill="{colour}" '
          f'stroke="{rim}" stroke-opacity=".1"/>')


def rosette(d, x, y, colour, size=1.0, kind="rosette"):
    d.head(kind, colour, x, y, size * 1.7)


def blade(d, x, y, height, lean, colour, width=9):
    d.add(f'<path d="M{pts(x - width / 2, y)}Q{pts(x + lean / 2 - width, y - height / 2)} {pts(x + lean, y - height)}'
          f'Q{pts(x + lean / 2 + width, y - height / 2)} {pts(x + width / 2, y)}Z" fill="{colour}"/>')


def big_leaf(d, x, y, size, angle, colour, slits=False):
    d.add(f'<g transform="translate({pts(x, y)}) rotate({angle}) scale({num(size)})">'
          f'<path d="M0 0C-14-4-20-22-10-34 0-44 12-40 16-30 22-16 12-4 0 0Z" fill="{colour}"/>'
          + ('<path d="M-14-20h8M-12-30h9M12-26h-8M10-14h-7" stroke="#fff" stroke-width="2.4" opacity=".9"/>' if slits else "")
          + f'<path d="M0 0Q2-20 2-36" stroke="{LEAF_DARK}" stroke-width="1" fill="none"/></g>')


def vase(d, shape, colour, flowers=(), glass=False):
    """A vase standing on the table with stems in it. shapes: cylinder, round, bottle."""
    d.add('<ellipse cx="100" cy="184" rx="40" ry="5" fill="#000" opacity=".07"/>')
    places = dome(len(flowers), cy=60, spread=40, rise=18) if flowers else []
    neck = {"cylinder": (78, 122, 104), "round": (84, 116, 112), "bottle": (92, 108, 104)}[shape]
    stems(d, [(x, y + 6) for x, y in places], (100, neck[2] + 30), width=1.8)
    for i, (x, y) in enumerate(places):
        leaf(d, x, y + 14, 16, -150 if x < 100 else -30)
    for (kind, c), (x, y) in zip(flowers, places):
        d.head(kind, c, x, y, 2)
    opacity = ' opacity=".55"' if glass else ""
    if shape == "cylinder":
        d.add(f'<rect x="72" y="104" width="56" height="80" rx="6" fill="{colour}"{opacity}/>')
    elif shape == "round":
        d.add(f'<path d="M86 104H114V118C140 126 140 184 100 184S60 126 86 118Z" fill="{colour}"{opacity}/>')
    else:
        d.add(f'<path d="M94 96H106V130C126 138 126 184 100 184S74 138 94 130Z" fill="{colour}"{opacity}/>')
    if glass:
        d.add('<path d="M80 114V170" stroke="#fff" stroke-width="4" stroke-linecap="round" opacity=".7"/>'
              '<path d="M74 150H126" stroke="#9cc9d9" stroke-width="1.5" opacity=".8"/>')
    else:
        d.add('<path d="M82 124q-4 24 2 44" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" opacity=".35"/>')


def gift_box(d, colour, ribbon, flowers, lid=True):
    places = dome(len(flowers), cy=96, spread=46, rise=14)
    d.add('<ellipse cx="100" cy="184" rx="62" ry="6" fill="#000" opacity=".07"/>')
    d.add(f'<path d="M44 100H156V180H44Z" fill="{colour}"/>')
    for (kind, c), (x, y) in zip(flowers, places):
        d.head(kind, c, x, y, 1.5)
    d.add(f'<path d="M40 112H160V124H40Z" fill="{colour}" stroke="#000" stroke-opacity=".1"/>'
          f'<path d="M94 112H106V180H94Z" fill="{ribbon}"/>')
    if lid:
        d.add(f'<path d="M56 40H150L146 58H52Z" fill="{colour}" transform="rotate(-14 100 50)" stroke="#000" stroke-opacity=".1"/>'
              f'<path d="M96 112q-18-18-26-8t26 8q18-18 26-8t-26 8" fill="none" stroke="{ribbon}" stroke-width="4"/>')


def glass_dome(d, kind, colour, glow=None):
    d.add('<ellipse cx="100" cy="180" rx="50" ry="6" fill="#000" opacity=".07"/>')
    if glow:
        d.add(f'<circle cx="100" cy="110" r="56" fill="{glow}" opacity=".35"/>')
    d.add(f'<path d="M100 106Q98 140 100 160" stroke="{STEM}" stroke-width="2.4" fill="none"/>')
    leaf(d, 100, 140, 18, -150)
    leaf(d, 100, 132, 16, -30, LEAF_DARK)
    d.head(kind, colour, 100, 100, 2.2)
    d.add('<path d="M64 160V92A36 36 0 0 1 136 92V160Z" fill="#dff1f6" opacity=".35" stroke="#fff" stroke-width="2"/>'
          '<path d="M74 96Q76 78 88 70" stroke="#fff" stroke-width="4" fill="none" stroke-linecap="round" opacity=".8"/>'
          '<path d="M56 160H144V176H56Z" fill="#8a5a3b"/><path d="M56 160H144V164H56Z" fill="#a9714c"/>')


def frame(d, border, flowers):
    d.add('<rect x="42" y="34" width="116" height="140" rx="4" fill="#000" opacity=".07" transform="translate(4 5)"/>'
          f'<rect x="42" y="34" width="116" height="140" rx="4" fill="{border}"/><rect x="54" y="46" width="92" height="116" fill="#fffdf8"/>')
    for i, (kind, c) in enumerate(flowers):
        d.head(kind, c, 74 + (i % 3) * 26, 70 + (i // 3) * 34, 1.2, i * 25)
    d.add('<path d="M64 146H136" stroke="#d8cfc2" stroke-width="2"/>')


def candle(d, jar, wax, label, flame=True, wood=False):
    d.add('<ellipse cx="100" cy="182" rx="44" ry="6" fill="#000" opacity=".07"/>'
          f'<rect x="62" y="92" width="76" height="90" rx="10" fill="{jar}"/><rect x="66" y="96" width="68" height="20" rx="4" fill="{wax}"/>'
          f'<rect x="72" y="128" width="56" height="34" rx="3" fill="{label}"/><path d="M82 142h36M86 150h28" stroke="#8d7a80" stroke-width="2"/>')
    if flame:
        wick = '<rect x="96" y="80" width="8" height="16" fill="#7a5230"/>' if wood else '<path d="M100 96V84" stroke="#333" stroke-width="1.6"/>'
        d.add(wick + '<path d="M100 56C108 68 108 80 100 82 92 80 92 68 100 56Z" fill="#f7b733"/>'
              '<path d="M100 66C104 72 104 79 100 80 96 79 96 72 100 66Z" fill="#fde07c"/>')


def diffuser(d, bottle):
    d.add('<ellipse cx="100" cy="182" rx="36" ry="5" fill="#000" opacity=".07"/>'
          '<path d="M96 120L70 36M100 120L96 30M104 120L124 34M98 120L84 32M102 120L112 30" stroke="#8a6a4a" stroke-width="2"/>'
          f'<path d="M90 112H110V130C132 136 132 182 100 182S68 136 90 130Z" fill="{bottle}" opacity=".85"/>'
          '<path d="M80 150H120" stroke="#fff" stroke-width="2" opacity=".6"/>')
    d.head("daisy", "white", 136, 150, 1.3)


def basket(d, tiers, flowers, ribbon):
    d.add('<path d="M78 188L100 120 122 188M100 120V188" stroke="#8a5a3b" stroke-width="4" fill="none"/>')
    for t in range(tiers):
        cy = 112 - t * 40
        count = len(flowers)
        for i, (kind, c) in enumerate(flowers):
            a = math.pi * (i + .5) / count
            d.head(kind, c, 100 - math.cos(a) * (42 - t * 6), cy - math.sin(a) * (20 - t * 3), 1.45 - t * .15)
        d.add(f'<ellipse cx="100" cy="{cy + 6}" rx="{46 - t * 6}" ry="8" fill="{LEAF_DARK}"/>')
    d.add(f'<path d="M100 {116 - (tiers - 1) * 40}q-10 40-26 70M100 {116 - (tiers - 1) * 40}q10 40 26 70" '
          f'stroke="{ribbon}" stroke-width="6" fill="none" stroke-linecap="round"/>')


def wreath(d):
    for i in range(18):
        a = math.radians(i * 20)
        leaf(d, 100 + math.cos(a) * 46, 100 + math.sin(a) * 46, 24, i * 20 + 100, LEAF_DARK if i % 2 else "#3f6b3b")
    for i in range(6):
        a = math.radians(i * 60 + 20)
        d.head("berry", "red", 100 + math.cos(a) * 46, 100 + math.sin(a) * 46, 1.3)
    d.add('<path d="M100 148q-18-14-22-4t22 4q18-14 22-4t-22 4l-10 24m10-24 10 24" fill="none" stroke="#c8354a" stroke-width="4"/>'
          '<circle cx="100" cy="60" r="7" fill="#8a5a3b"/>')


def dried(d, kind, colour, count=7):
    base, dark, light = COLOURS[colour]
    d.add('<ellipse cx="100" cy="186" rx="30" ry="5" fill="#000" opacity=".06"/>')
    for i in range(count):
        s = i - (count - 1) / 2
        top = (100 + s * 14, 50 + abs(s) * 8)
        d.add(f'<path d="M{pts(*top)}Q{pts(100 + s * 6, 120)} 100 184" stroke="#9c8b6a" stroke-width="1.6" fill="none"/>')
        if kind == "eucalyptus":
            for j in range(4):
                d.add(f'<circle cx="{num(top[0] + s * 1.5 + (-1) ** j * 5)}" cy="{num(top[1] + 8 + j * 14)}" r="{num(5 - j * .4)}" '
                      f'fill="{base if j % 2 else light}" stroke="{dark}" stroke-width=".5"/>')
        elif kind == "cotton":
            d.add(f'<g transform="translate({pts(*top)})"><circle r="8" fill="#fff" stroke="#e6ddd2"/><circle cx="-6" cy="4" r="6" fill="#fff" '
                  f'stroke="#e6ddd2"/><circle cx="6" cy="4" r="6" fill="#fff" stroke="#e6ddd2"/><path d="M-6 9L0 4 6 9" stroke="#7a5a3a" '
                  f'stroke-width="1.6" fill="none"/></g>')
        elif kind == "bunny":
            d.add(f'<ellipse cx="{num(top[0])}" cy="{num(top[1])}" rx="5" ry="9" fill="{(base, light)[i % 2]}" transform="rotate({num(s * 8)} {pts(*top)})"/>')
        else:
            d.head("tiny", colour, top[0], top[1], 1.1, i * 30)
    d.add('<path d="M92 150h16" stroke="#c9a36a" stroke-width="6" stroke-linecap="round"/>')


def bulbs(d, colour, sprout=True, count=3):
    base, dark, light = COLOURS[colour]
    d.add('<ellipse cx="100" cy="180" rx="62" ry="6" fill="#000" opacity=".06"/>')
    for i in range(count):
        x = 100 + (i - (count - 1) / 2) * 40
        y = 150 + (i % 2) * 10
        if sprout:
            d.add(f'<path d="M{pts(x, y - 22)}q-2-26 4-38" stroke="{LEAF}" stroke-width="4" fill="none" stroke-linecap="round"/>')
        d.add(f'<path d="M{pts(x, y - 30)}C{pts(x + 6, y - 18, x + 22, y - 12, x + 18, y + 4)}C{pts(x + 14, y + 16, x - 14, y + 16, x - 18, y + 4)}'
              f'C{pts(x - 22, y - 12, x - 6, y - 18, x, y - 30)}Z" fill="{base}" stroke="{dark}" stroke-width="1"/>'
              f'<path d="M{pts(x - 6, y + 12)}l-3 6m6-6v7m6-7 3 6" stroke="#c9b28c" stroke-width="1.4"/>'
              f'<path d="M{pts(x, y - 26)}Q{pts(x - 6, y - 6, x - 2, y + 10)}" stroke="{light}" stroke-width="2" fill="none"/>')


def seed_packet(d, paper, kind, colour):
    d.add('<rect x="56" y="36" width="88" height="130" rx="4" fill="#000" opacity=".07" transform="translate(4 5)"/>'
          f'<rect x="56" y="36" width="88" height="130" rx="4" fill="{paper}"/><path d="M56 48H144" stroke="#fff" stroke-width="2" '
          f'stroke-dasharray="4 3"/><rect x="66" y="58" width="68" height="68" rx="34" fill="#fff" opacity=".7"/>'
          '<path d="M70 140h60M78 150h44" stroke="#fff" stroke-width="4" stroke-linecap="round" opacity=".8"/>')
    d.head(kind, colour, 100, 92, 2.4)
    for i in range(5):
        d.add(f'<ellipse cx="{70 + i * 16}" cy="{178 - (i % 2) * 4}" rx="2.6" ry="4" fill="#6b4a2b" transform="rotate({i * 30} {70 + i * 16} 178)"/>')


def shears(d):
    d.add('<ellipse cx="100" cy="178" rx="60" ry="6" fill="#000" opacity=".06"/>'
          '<path d="M100 104L150 40" stroke="#9aa4ad" stroke-width="8" stroke-linecap="round"/>'
          '<path d="M100 104L146 60" stroke="#c3cbd2" stroke-width="8" stroke-linecap="round"/>'
          '<path d="M100 104L62 158" stroke="#c8354a" stroke-width="12" stroke-linecap="round"/>'
          '<path d="M100 104L78 166" stroke="#e05a6f" stroke-width="12" stroke-linecap="round"/><circle cx="100" cy="104" r="5" fill="#555"/>')


def watering_can(d):
    d.add('<ellipse cx="100" cy="178" rx="62" ry="6" fill="#000" opacity=".06"/>'
          '<path d="M64 100H132L126 174H70Z" fill="#c9a36a"/><path d="M64 100H132V110H64Z" fill="#b38b4f"/>'
          '<path d="M130 150L170 80" stroke="#c9a36a" stroke-width="8" stroke-linecap="round"/><rect x="162" y="68" width="16" height="10" '
          'rx="3" fill="#b38b4f" transform="rotate(-30 170 73)"/><path d="M74 100Q98 56 122 100" stroke="#b38b4f" stroke-width="6" fill="none"/>')


def trowels(d):
    d.add('<ellipse cx="100" cy="180" rx="64" ry="6" fill="#000" opacity=".06"/>')
    for i, x in enumerate((64, 100, 136)):
        d.add(f'<rect x="{x - 5}" y="110" width="10" height="62" rx="5" fill="#a9714c"/>')
        head = ('<path d="M{0} 40C{1} 60 {1} 96 {0} 112 {2} 96 {2} 60 {0} 40Z" fill="#b7c0c8"/>',
                '<path d="M{1} 50V108H{2}V50M{0} 50V108" stroke="#b7c0c8" stroke-width="5" fill="none"/>',
                '<path d="M{0} 46C{1} 56 {1} 100 {0} 112 {2} 100 {2} 56 {0} 46Z" fill="#9aa4ad"/>')[i]
        d.add(head.format(x, x - 14, x + 14))
    d.add('<path d="M40 172H160" stroke="#d9c7a5" stroke-width="6" stroke-linecap="round"/>')


def sachet(d, colour):
    d.add('<ellipse cx="100" cy="180" rx="44" ry="6" fill="#000" opacity=".06"/>'
          f'<path d="M62 48H138L134 176H66Z" fill="{colour}"/><path d="M62 48H138V62H62Z" fill="#fff" opacity=".4"/>'
          '<rect x="76" y="96" width="48" height="44" rx="22" fill="#fff" opacity=".8"/>')
    d.head("rose", "pink", 100, 118, 1.4)


def soil_bag(d):
    d.add('<ellipse cx="100" cy="182" rx="56" ry="6" fill="#000" opacity=".06"/>'
          '<path d="M54 56Q100 44 146 56L152 176Q100 186 48 176Z" fill="#7a5a3a"/><path d="M60 96H140V140H60Z" fill="#f3e3cf"/>'
          '<path d="M70 110h60M76 124h48" stroke="#7a5a3a" stroke-width="4"/>')
    for i in range(9):
        d.add(f'<circle cx="{40 + i * 15}" cy="{184 - (i % 3) * 3}" r="3" fill="{("#8a6a4a", "#c9b28c", "#5e4630")[i % 3]}"/>')
    rosette(d, 150, 160, "green", .7)


def succulent_pot(d, colour, pot_colour, kind="rosette", count=1, shallow=False):
    if shallow:
        d.add('<ellipse cx="100" cy="174" rx="78" ry="6" fill="#000" opacity=".07"/><path d="M30 140H170L158 172H42Z" fill="#c48a6a"/>'
              '<path d="M26 132H174V144H26Z" fill="#d19a7a"/><ellipse cx="100" cy="134" rx="70" ry="6" fill="#6b4a2b"/>')
        for i, c in enumerate(("green", "pink", "sky", "green", "lavender")):
            rosette(d, 48 + i * 26, 122 - (i % 2) * 8, c, 1.1)
        d.add('<rect x="124" y="108" width="10" height="16" fill="#fff"/><path d="M122 108L129 96 136 108Z" fill="#c8354a"/>')
        return
    if count == 1:
        pot(d, pot_colour, top=124, width=80, height=56)
        rosette(d, 100, 108, colour, 2.6, kind)
        return
    for i, (c, x) in enumerate(zip(("green", "pink", "sky"), (46, 100, 154))):
        d.add(f'<path d="M{x - 24} 130H{x + 24}L{x + 18} 172H{x - 18}Z" fill="{pot_colour}"/>'
              f'<rect x="{x - 26}" y="124" width="52" height="9" fill="{pot_colour}" stroke="#000" stroke-opacity=".08"/>')
        rosette(d, x, 114, c, 1.4)
    d.add('<ellipse cx="100" cy="176" rx="72" ry="4" fill="#000" opacity=".06"/>')


def potted(d, plant, pot_colour):
    """Foliage and flowering pot plants."""
    if plant == "monstera":
        d.add(f'<path d="M100 140Q92 96 66 70M100 140Q104 90 128 62M100 140Q112 110 146 104M100 140Q88 116 56 112" '
              f'stroke="{STEM}" stroke-width="2.4" fill="none"/>')
        for x, y, s, a in ((66, 72, 1.3, -40), (128, 64, 1.4, 30), (146, 106, 1.1, 80), (56, 112, 1.1, -80)):
            big_leaf(d, x, y, s, a, "#3f8a4f", slits=True)
        pot(d, pot_colour, top=136, width=76, height=44)
    elif plant == "fiddle":
        d.add(f'<path d="M100 150V40" stroke="#7a5a3a" stroke-width="4"/>')
        for i, (y, side) in enumerate(((50, -1), (66, 1), (84, -1), (100, 1), (118, -1))):
            big_leaf(d, 100, y + 10, .9, side * 70, "#4f8f4a" if i % 2 else "#3f7a3f")
        pot(d, pot_colour, top=146, width=66, height=36)
    elif plant == "pothos":
        d.add('<path d="M60 24V60M140 24V60M60 24Q100 8 140 24" stroke="#a98a6a" stroke-width="2" fill="none"/>')
        pot(d, pot_colour, top=62, width=84, height=40)
        for side in (-1, 1):
            for j in range(5):
                x = 100 + side * (30 + j * 4)
                y = 100 + j * 18
                d.add(f'<path d="M{100 + side * 30} 96Q{x + side * 6} {y - 8} {x} {y}" stroke="{STEM}" stroke-width="1.6" fill="none"/>')
                big_leaf(d, x, y, .5, 180 + side * 30, "#6fae4f" if j % 2 else "#8cc063")
    elif plant == "snake":
        for i, (x, h, lean) in enumerate(((76, 90, -14), (90, 120, -4), (104, 130, 6), (118, 100, 14), (96, 80, 22))):
            blade(d, x, 146, h, lean, "#3f7a3f" if i % 2 else "#4f8f4a", 16)
            d.add(f'<path d="M{x - 8} 146Q{x + lean / 2 - 10} {146 - h / 2} {x + lean} {146 - h}" stroke="#e8d36a" stroke-width="2" fill="none"/>')
        pot(d, pot_colour, top=144, width=70, height=38)
    elif plant == "bird":
        for i, (a, s) in enumerate(((-40, 1.5), (-10, 1.7), (20, 1.5), (45, 1.3))):
            d.add(f'<path d="M100 150L{pts(100 + math.sin(math.radians(a)) * 70, 150 - math.cos(math.radians(a)) * 70)}" stroke="{STEM}" stroke-width="2.4"/>')
            big_leaf(d, 100 + math.sin(math.radians(a)) * 70, 150 - math.cos(math.radians(a)) * 70, s, a, "#4f8f4a")
        d.add('<path d="M128 70l24-8-14 12 18 2-22 6Z" fill="#f39a3d"/><path d="M128 76l16 6-18-2Z" fill="#5d8fd6"/>')
        pot(d, pot_colour, top=146, width=70, height=38)
    elif plant == "fern":
        for i in range(9):
            a = -80 + i * 20
            d.add(f'<path d="M100 132q{num(math.sin(math.radians(a)) * 30)} -40 {num(math.sin(math.radians(a)) * 62)} {num(-36 - math.cos(math.radians(a)) * 40)}" '
                  f'stroke="{"#5a9a44" if i % 2 else "#79b55a"}" stroke-width="12" fill="none" stroke-linecap="round"/>')
        pot(d, pot_colour, top=130, width=76, height=48)
    elif plant == "money":
        d.add('<path d="M92 150Q86 100 96 60M100 150V56M108 150Q114 100 104 60" stroke="#8a6a4a" stroke-width="5" fill="none"/>')
        for i in range(7):
            a = -70 + i * 23
            x, y = 100 + math.sin(math.radians(a)) * 44, 64 - math.cos(math.radians(a)) * 26
            big_leaf(d, x, y + 14, .8, a, "#4f9a4a" if i % 2 else "#3f8a3f")
        d.add('<path d="M86 146h28" stroke="#c8354a" stroke-width="6"/>')
        pot(d, pot_colour, top=146, width=74, height=38)
    else:  # flowering: orchid, rose bush, jasmine, kalanchoe
        kind, colour = plant
        if kind == "orchid":
            d.add(f'<path d="M96 140Q90 60 140 46" stroke="{STEM}" stroke-width="2.4" fill="none"/>')
            for i, (x, y) in enumerate(((96, 96), (100, 74), (112, 58), (128, 50), (144, 48))):
                d.head("orchid", colour, x, y, 1.6 - i * .12)
            for a in (-150, -30, -170):
                leaf(d, 100, 142, 40, a, "#3f7a3f")
        else:
            for i, (x, y) in enumerate(dome(7, cy=88, spread=60, rise=24)):
                leaf(d, x, y + 10, 26, -150 + i * 40, LEAF if i % 2 else LEAF_DARK)
                d.head(kind, colour if i % 3 else ("yellow" if kind == "tiny" else colour), x, y, 1.3 if kind != "tiny" else 1.1)
            if kind == "tiny":
                for i in range(4):
                    d.head("daisy", "yellow", 70 + i * 20, 100 + (i % 2) * 10, 1)
        pot(d, pot_colour, top=134, width=74, height=44)


def kumquat_box(d):
    gift_box(d, "#c8354a", "#f2b552", [("orchid", "pink"), ("berry", "orange"), ("orchid", "purple"), ("berry", "orange"), ("orchid", "pink")], lid=False)


def chocolates(d):
    gift_box(d, "#6e1426", "#f2b552", [("rose", "red")] * 5, lid=True)
    for i in range(3):
        d.add(f'<rect x="{146 + i * 0}" y="{140 + i * 12}" width="26" height="10" rx="3" fill="#5a3520"/>')


def music_box(d):
    d.add('<ellipse cx="100" cy="184" rx="56" ry="6" fill="#000" opacity=".07"/>'
          '<path d="M54 120H146V180H54Z" fill="#8a5a3b"/><path d="M54 120H146V128H54Z" fill="#a9714c"/>'
          '<path d="M60 60H140V116H60Z" fill="#a9714c" transform="skewX(-10) translate(18 0)"/>'
          '<path d="M150 150h10" stroke="#f2b552" stroke-width="6" stroke-linecap="round"/>')
    d.add(f'<path d="M100 110V90" stroke="{STEM}" stroke-width="3"/>')
    d.head("rose", "red", 100, 90, 2.2)
    d.add('<path d="M148 70v-22l12-4v22" stroke="#8d7a80" stroke-width="2" fill="none"/><circle cx="146" cy="70" r="3" fill="#8d7a80"/>'
          '<circle cx="158" cy="66" r="3" fill="#8d7a80"/>')


def tubes(d):
    d.add('<ellipse cx="100" cy="182" rx="66" ry="6" fill="#000" opacity=".07"/><path d="M36 120H164V132H36ZM36 168H164V180H36Z" fill="#c49a6c"/>'
          '<path d="M40 120V180M160 120V180" stroke="#a9714c" stroke-width="6"/>')
    for i, (kind, c) in enumerate((("daisy", "white"), ("tiny", "lavender"), ("rose", "pink"), ("tulip", "yellow"), ("daisy", "yellow"))):
        x = 56 + i * 22
        d.add(f'<path d="M{x} {70 + (i % 2) * 10}V150" stroke="{STEM}" stroke-width="1.6"/>')
        d.head(kind, c, x, 66 + (i % 2) * 10, 1.1)
        d.add(f'<rect x="{x - 6}" y="108" width="12" height="60" rx="6" fill="#dff1f6" opacity=".6" stroke="#fff"/>')


def hyacinth(d):
    vase(d, "bottle", "#9cc9d9", glass=True)
    d.add(f'<path d="M100 96V50" stroke="{LEAF}" stroke-width="6" stroke-linecap="round"/>')
    blade(d, 96, 98, 40, -16, LEAF, 8)
    blade(d, 104, 98, 44, 16, LEAF_DARK, 8)
    d.head("spike", "purple", 100, 40, 2.2)
    d.add('<path d="M100 150c-6 10-10 20-14 28m14-28c0 10 2 20 0 28m0-28c6 10 10 20 14 28" stroke="#f3ead9" stroke-width="1.6" fill="none"/>'
          '<ellipse cx="100" cy="140" rx="10" ry="8" fill="#c9a36a"/>')


def packaging(d):
    """How every order leaves the shop: a kraft box, tissue paper, a ribbon and a hand-written card."""
    d.add('<ellipse cx="100" cy="180" rx="70" ry="7" fill="#000" opacity=".07"/>'
          '<path d="M34 96H166V178H34Z" fill="#c9a57a"/><path d="M44 80L70 100 92 76 112 100 134 78 156 100H44Z" fill="#fbe3ea"/>'
          '<path d="M28 96H172V110H28Z" fill="#e2c49c"/><path d="M94 96H106V178H94Z" fill="#d9637a"/>'
          '<path d="M100 96q-26-24-34-12t34 12q26-24 34-12t-34 12" fill="none" stroke="#d9637a" stroke-width="5"/>'
          '<g transform="rotate(-8 150 140)"><rect x="118" y="120" width="60" height="42" rx="3" fill="#fffdf8" stroke="#e6ddd2"/>'
          '<path d="M128 150h24M128 156h16" stroke="#c9b28c" stroke-width="2"/></g>')
    d.head("tulip", "pink", 160, 136, .9)


# ---- the scenes -----------------------------------------------------------------------------
KRAFT = ("#e2c49c", "#c9a57a")
SCENES = {
    # bouquets: flowers back row first, wrap (front, back), ribbon
    "rose-red": ("blush", lambda d: bouquet(d, [("rose", "red")] * 7, KRAFT, "#b84a61")),
    "rose-wine": ("rosewood", lambda d: bouquet(d, [("rose", "red")] * 6, ("#8e2a3d", "#6e1426"), "#f2d2a9")),
    "rose-champagne": ("cream", lambda d: bouquet(d, [("rose", "champagne"), ("eustoma", "white"), ("rose", "champagne"),
                                                      ("rose", "champagne"), ("eustoma", "white")], ("#f7efe6", "#e3d4c2"), "#c99e77")),
    "rose-pink": ("blush", lambda d: bouquet(d, [("rose", "pink")] * 7, ("#fbe3ea", "#f2c2cf"), "#d0647f")),
    "rose-white": ("mint", lambda d: bouquet(d, [("rose", "white")] * 6, ("#ffffff", "#e6efe8"), "#7fa98a",
                                             fillers=[("tiny", "white", x, y) for x, y in ((64, 70), (136, 70), (100, 44), (80, 52), (120, 52))])),
    "rose-blue": ("sky", lambda d: bouquet(d, [("rose", "blue")] * 7, ("#f5f8fc", "#d7e3f2"), "#345fa6")),
    "rose-single": ("blush", lambda d: single(d, "rose", "red", "#c99e77")),
    "rose-lavender": ("lilac", lambda d: bouquet(d, [("rose", "lavender"), ("hydrangea", "sky"), ("rose", "lavender"),
                                                     ("rose", "lavender"), ("hydrangea", "sky")], ("#f7f4fb", "#ded6ee"), "#8672bd")),
    "rose-black": ("rosewood", lambda d: bouquet(d, [("rose", "red")] * 7, ("#3d3438", "#241e21"), "#e3b04b")),
    "bucket-pink": ("blush", lambda d: bucket(d, [("rose", "pink"), ("carnation", "rose"), ("rose", "pink"), ("carnation", "rose"),
                                                  ("rose", "pink"), ("carnation", "pink"), ("rose", "rose")], "#d9b58c")),
    "lily-white": ("mint", lambda d: bouquet(d, [("lily", "white")] * 5, ("#ffffff", "#dcebdf"), "#7fa98a")),
    "lily-pink": ("blush", lambda d: bouquet(d, [("lily", "pink"), ("eustoma", "lavender"), ("lily", "pink"), ("lily", "pink"),
                                                 ("eustoma", "lavender")], ("#fdf0f3", "#efc9d3"), "#c14d6b")),
    "lily-rose": ("blush", lambda d: bouquet(d, [("lily", "white"), ("rose", "pink"), ("lily", "white"), ("rose", "pink"),
                                                 ("rose", "pink"), ("lily", "white")], ("#fff7f4", "#f1d6cf"), "#ec7b96")),
    "lily-carnation": ("cream", lambda d: bouquet(d, [("lily", "white"), ("carnation", "white"), ("lily", "white"), ("carnation", "cream"),
                                                      ("carnation", "white")], ("#f4f1ea", "#dcd5c6"), "#a99b86")),
    "sunflower": ("butter", lambda d: bouquet(d, [("sunflower", "yellow"), ("daisy", "white"), ("sunflower", "yellow"), ("sunflower", "yellow"),
                                                  ("daisy", "white")], KRAFT, "#8a5a3b",
                                              fillers=[("wheat", "cream", 62, 56), ("wheat", "cream", 138, 56)])),
    "sunflower-grad": ("sky", lambda d: bouquet(d, [("sunflower", "yellow")] * 3 + [("daisy", "white")] * 2,
                                                ("#e8f0fa", "#9cc0ee"), "#345fa6")),
    "sunflower-daisy": ("butter", lambda d: bouquet(d, [("daisy", "white"), ("sunflower", "yellow"), ("daisy", "white"), ("daisy", "white"),
                                                        ("sunflower", "yellow"), ("daisy", "white")], ("#fffdf5", "#f1e2b4"), "#d69a12")),
    "sunflower-single": ("butter", lambda d: single(d, "sunflower", "yellow", "#5d8fd6")),
    "carnation-pink": ("blush", lambda d: bouquet(d, [("carnation", "pink")] * 6, ("#fdf0f3", "#f0c7d2"), "#5d8fd6",
                                                  fillers=[("tiny", "sky", x, y) for x, y in ((62, 74), (138, 74), (100, 40))])),
    "carnation-mix": ("rosewood", lambda d: bouquet(d, [("carnation", "rose"), ("lily", "white"), ("carnation", "rose"), ("carnation", "pink"),
                                                        ("daisy", "yellow"), ("carnation", "rose")], ("#fff7f4", "#ebc6c9"), "#c14d6b")),
    "carnation-red": ("rosewood", lambda d: bouquet(d, [("carnation", "red")] * 7, KRAFT, "#9e1f36")),
    "tulip-mix": ("cream", lambda d: bouquet(d, [("tulip", "red"), ("tulip", "yellow"), ("tulip", "pink"), ("tulip", "orange"),
                                                 ("tulip", "purple"), ("tulip", "red"), ("tulip", "yellow")], ("#f7f1e6", "#e3d4c2"), "#8a5a3b")),
    "tulip-pink": ("blush", lambda d: bouquet(d, [("tulip", "pink")] * 7, ("#fff", "#f2c2cf"), "#d0647f",
                                              fillers=[("tiny", "white", x, y) for x, y in ((60, 66), (140, 66))])),
    "tulip-peach": ("cream", lambda d: bouquet(d, [("peony", "peach")] * 5, ("#fffaf4", "#f1d9c6"), "#d9825e")),
    "monet": ("lilac", lambda d: bouquet(d, [("eustoma", "purple"), ("rose", "white"), ("spike", "blue"), ("eustoma", "lavender"),
                                             ("rose", "white"), ("eustoma", "purple")], ("#f5f1fa", "#d9cfea"), "#6c4896")),
    "hydrangea-blue": ("sky", lambda d: bouquet(d, [("hydrangea", "blue"), ("spike", "sky"), ("hydrangea", "sky"), ("hydrangea", "blue")],
                                                ("#fff", "#c7d9ef"), "#345fa6", spread=50)),
    "peony-pink": ("blush", lambda d: bouquet(d, [("peony", "pink"), ("peony", "rose"), ("peony", "pink"), ("peony", "pink"),
                                                  ("peony", "rose")], ("#fff8f9", "#f2c9d3"), "#c14d6b")),
    "eustoma-purple": ("lilac", lambda d: bouquet(d, [("eustoma", "purple"), ("eustoma", "white"), ("eustoma", "lavender"),
                                                      ("eustoma", "purple"), ("eustoma", "white"), ("eustoma", "lavender")],
                                                  ("#faf7fd", "#ddd2f4"), "#9b6fc4")),
    "weekly": ("sand", lambda d: bucket(d, [("peony", "peach"), ("daisy", "white"), ("tulip", "yellow"), ("eustoma", "lavender"),
                                            ("rose", "pink"), ("tiny", "white"), ("sunflower", "yellow")], "#c9a57a")),
    "daisy-white": ("mint", lambda d: bouquet(d, [("daisy", "white")] * 7, ("#ffffff", "#d3ead8"), "#f2b632",
                                              fillers=[("tiny", "white", x, y) for x, y in ((60, 60), (140, 60), (80, 40), (120, 40))])),
    "birthday": ("blush", lambda d: bouquet(d, [("rose", "pink"), ("tiny", "rose"), ("rose", "rose"), ("rose", "pink"), ("daisy", "yellow"),
                                                ("rose", "pink"), ("rose", "rose")], ("#fdf0f3", "#f7b0c1"), "#f2b552")),
    # plants
    "succulent-trio": ("mint", lambda d: succulent_pot(d, "green", "#f4f1ea", count=3)),
    "succulent-jade": ("mint", lambda d: succulent_pot(d, "sky", "#e9e4dc")),
    "succulent-pink": ("blush", lambda d: succulent_pot(d, "pink", "#f4f1ea")),
    "succulent-garden": ("sand", lambda d: succulent_pot(d, "green", "", shallow=True)),
    "succulent-bear": ("mint", lambda d: succulent_pot(d, "green", "#c48a6a", kind="bear")),
    "monstera": ("mint", lambda d: potted(d, "monstera", "#e9e4dc")),
    "fiddle-leaf": ("sand", lambda d: potted(d, "fiddle", "#5e5a56")),
    "pothos": ("mint", lambda d: potted(d, "pothos", "#f4f1ea")),
    "snake-plant": ("sand", lambda d: potted(d, "snake", "#c48a6a")),
    "bird-of-paradise": ("sky", lambda d: potted(d, "bird", "#e9e4dc")),
    "fern": ("mint", lambda d: potted(d, "fern", "#c48a6a")),
    "orchid": ("cream", lambda d: potted(d, ("orchid", "purple"), "#f4f1ea")),
    "rose-bush": ("blush", lambda d: potted(d, ("rose", "pink"), "#c48a6a")),
    "jasmine": ("mint", lambda d: potted(d, ("daisy", "white"), "#e9e4dc")),
    "kalanchoe": ("butter", lambda d: potted(d, ("tiny", "red"), "#c8354a")),
    "money-tree": ("butter", lambda d: potted(d, "money", "#c8354a")),
    # preserved flowers
    "box-champagne": ("cream", lambda d: gift_box(d, "#f1e6d8", "#c99e77", [("rose", "champagne")] * 7, lid=False)),
    "dome-red": ("rosewood", lambda d: glass_dome(d, "rose", "red")),
    "frame-hydrangea": ("sky", lambda d: frame(d, "#c9a57a", [("hydrangea", "sky"), ("rose", "pink"), ("hydrangea", "lavender"),
                                                             ("rose", "pink"), ("hydrangea", "blue"), ("tiny", "white")])),
    "music-box": ("rosewood", music_box),
    "night-light": ("lilac", lambda d: glass_dome(d, "rose", "pink", glow="#fde07c")),
    # vases
    "vase-glass": ("sky", lambda d: vase(d, "cylinder", "#cfe6ee", [("tulip", "pink"), ("daisy", "white"), ("tulip", "pink")], glass=True)),
    "vase-amber": ("butter", lambda d: vase(d, "round", "#e8a64a", [("tiny", "white"), ("daisy", "white")], glass=True)),
    "vase-tubes": ("sand", tubes),
    "vase-clay": ("sand", lambda d: vase(d, "round", "#b08060", [("wheat", "cream"), ("tiny", "cream"), ("wheat", "cream")])),
    "vase-celadon": ("mint", lambda d: vase(d, "bottle", "#9cc2a8", [("orchid", "white")])),
    "vase-morandi": ("blush", lambda d: vase(d, "cylinder", "#d7b8b8", [("rose", "champagne"), ("eustoma", "white")])),
    # gift boxes
    "box-love": ("rosewood", lambda d: gift_box(d, "#f7e2e2", "#c8354a", [("rose", "red"), ("rose", "white")] * 3 + [("rose", "red")])),
    "box-mother": ("blush", lambda d: gift_box(d, "#fbe3ea", "#d0647f", [("carnation", "pink"), ("rose", "pink"), ("lily", "white"),
                                                                        ("carnation", "rose"), ("rose", "pink")], lid=False)),
    "box-qixi": ("lilac", lambda d: gift_box(d, "#2f2a4a", "#e3b04b", [("rose", "red"), ("rose", "pink"), ("eustoma", "white"),
                                                                      ("rose", "red"), ("rose", "pink")])),
    "wreath": ("cream", wreath),
    "box-chocolate": ("rosewood", chocolates),
    "box-new-year": ("butter", kumquat_box),
    # tools, candles, dried flowers, baskets, bulbs
    "shears": ("sky", shears),
    "watering-can": ("mint", watering_can),
    "tool-set": ("sand", trowels),
    "flower-food": ("mint", lambda d: sachet(d, "#9cc2a8")),
    "soil": ("sand", soil_bag),
    "candle-rose": ("blush", lambda d: candle(d, "#f29bb0", "#fbe3ea", "#fff")),
    "candle-tea": ("mint", lambda d: candle(d, "#f4f1ea", "#fffdf8", "#d3ead8")),
    "diffuser": ("cream", lambda d: diffuser(d, "#e6d7b8")),
    "candle-cedar": ("sand", lambda d: candle(d, "#7a5a3a", "#f3e3cf", "#e2c49c", wood=True)),
    "wax-tablet": ("lilac", lambda d: sachet(d, "#ddd2f4")),
    "dried-eucalyptus": ("mint", lambda d: dried(d, "eucalyptus", "green")),
    "dried-cotton": ("sand", lambda d: dried(d, "cotton", "white", 5)),
    "dried-babysbreath": ("sky", lambda d: dried(d, "tiny", "white", 9)),
    "dried-bunny-tail": ("lilac", lambda d: dried(d, "bunny", "lavender", 9)),
    "pressed-flowers": ("cream", lambda d: frame(d, "#e2c49c", [("daisy", "purple"), ("hydrangea", "sky"), ("rose", "pink"),
                                                               ("daisy", "yellow"), ("tiny", "rose"), ("hydrangea", "lavender")])),
    "basket-red": ("rosewood", lambda d: basket(d, 2, [("rose", "red"), ("lily", "white"), ("daisy", "orange"), ("rose", "red"), ("lily", "white")], "#c8354a")),
    "basket-sunflower": ("butter", lambda d: basket(d, 1, [("sunflower", "yellow"), ("daisy", "orange"), ("lily", "white"), ("sunflower", "yellow")], "#d69a12")),
    "basket-grand": ("rosewood", lambda d: basket(d, 3, [("rose", "red"), ("lily", "white"), ("daisy", "red"), ("spike", "pink"), ("rose", "red")], "#e3b04b")),
    "bulb-tulip": ("cream", lambda d: bulbs(d, "champagne")),
    "bulb-hyacinth": ("lilac", hyacinth),
    "seeds-sunflower": ("butter", lambda d: seed_packet(d, "#f39a3d", "sunflower", "yellow")),
    "bulb-amaryllis": ("rosewood", lambda d: bulbs(d, "wine", count=2)),
    "seeds-rose": ("blush", lambda d: seed_packet(d, "#d9637a", "rose", "red")),
    "packaging": ("cream", packaging),
}
# Scenes only the articles use.
SCENES.update({
    "tomato": ("butter", lambda d: potted(d, ("berry", "red"), "#c48a6a")),
    "chrysanthemum": ("butter", lambda d: bucket(d, [("daisy", "yellow"), ("daisy", "white"), ("daisy", "yellow"), ("daisy", "white"),
                                                     ("daisy", "yellow"), ("daisy", "white"), ("daisy", "yellow")], "#e2c49c")),
    "osmanthus": ("butter", lambda d: potted(d, ("tiny", "orange"), "#e9e4dc")),
    "camellia": ("rosewood", lambda d: potted(d, ("peony", "red"), "#e9e4dc")),
    "orchid-green": ("mint", lambda d: vase(d, "bottle", "#e9e4dc", [("orchid", "green")])),
})

# Which scene each demo product shows (by product_code).
PRODUCTS = {
    "FL-ROSE-001": "rose-red", "FL-ROSE-002": "rose-wine", "FL-ROSE-003": "rose-champagne", "FL-ROSE-004": "rose-pink",
    "FL-ROSE-005": "rose-white", "FL-ROSE-006": "rose-blue", "FL-ROSE-007": "rose-single", "FL-ROSE-008": "rose-lavender",
    "FL-ROSE-009": "rose-black", "FL-ROSE-010": "bucket-pink",
    "FL-LILY-001": "lily-white", "FL-LILY-002": "lily-pink", "FL-LILY-003": "lily-rose", "FL-LILY-004": "lily-carnation",
    "FL-SUN-001": "sunflower", "FL-SUN-002": "sunflower-grad", "FL-SUN-003": "sunflower-daisy", "FL-SUN-004": "sunflower-single",
    "FL-CARN-001": "carnation-pink", "FL-CARN-002": "carnation-mix", "FL-CARN-003": "carnation-red",
    "FL-TULIP-001": "tulip-mix", "FL-TULIP-002": "tulip-pink", "FL-TULIP-003": "tulip-peach",
    "FL-MIX-001": "monet", "FL-MIX-002": "hydrangea-blue", "FL-MIX-003": "peony-pink", "FL-MIX-004": "eustoma-purple",
    "FL-MIX-005": "weekly", "FL-MIX-006": "daisy-white", "FL-MIX-007": "birthday",
    "GR-SUCC-001": "succulent-trio", "GR-SUCC-002": "succulent-jade", "GR-SUCC-003": "succulent-pink",
    "GR-SUCC-004": "succulent-garden", "GR-SUCC-005": "succulent-bear",
    "GR-LEAF-001": "monstera", "GR-LEAF-002": "fiddle-leaf", "GR-LEAF-003": "pothos", "GR-LEAF-004": "snake-plant",
    "GR-LEAF-005": "bird-of-paradise", "GR-LEAF-006": "fern",
    "GR-BLOOM-001": "orchid", "GR-BLOOM-002": "rose-bush", "GR-BLOOM-003": "jasmine", "GR-BLOOM-004": "kalanchoe",
    "PR-FLWR-001": "box-champagne", "PR-FLWR-002": "dome-red", "PR-FLWR-003": "frame-hydrangea", "PR-FLWR-004": "music-box",
    "PR-FLWR-005": "night-light",
    "VA-GLAS-001": "vase-glass", "VA-GLAS-002": "vase-amber", "VA-GLAS-003": "vase-tubes",
    "VA-CERA-001": "vase-clay", "VA-CERA-002": "vase-celadon", "VA-CERA-003": "vase-morandi",
    "GB-FEST-001": "box-love", "GB-FEST-002": "box-mother", "GB-FEST-003": "box-qixi", "GB-FEST-004": "wreath",
    "GB-FEST-005": "box-chocolate", "GB-CORP-001": "box-new-year",
    "TL-TOOL-001": "shears", "TL-TOOL-002": "watering-can", "TL-TOOL-003": "tool-set", "TL-TOOL-004": "flower-food",
    "TL-TOOL-005": "soil",
    "CA-CNDL-001": "candle-rose", "CA-CNDL-002": "candle-tea", "CA-CNDL-003": "diffuser", "CA-CNDL-004": "candle-cedar",
    "CA-CNDL-005": "wax-tablet",
    "DF-DRY-001": "dried-eucalyptus", "DF-DRY-002": "dried-cotton", "DF-DRY-003": "dried-babysbreath",
    "DF-DRY-004": "dried-bunny-tail", "DF-DRY-005": "pressed-flowers",
    "BK-OPEN-001": "basket-red", "BK-OPEN-002": "basket-sunflower", "BK-OPEN-003": "money-tree", "BK-OPEN-004": "basket-grand",
    "SD-BULB-001": "bulb-tulip", "SD-BULB-002": "bulb-hyacinth", "SD-BULB-003": "seeds-sunflower", "SD-BULB-004": "bulb-amaryllis",
    "SD-BULB-005": "seeds-rose",
}

# Article covers, in the order of Examples/articles.jsonl (matched by title, so reordering is harmless).
ARTICLE_COVERS = {
    "插花入门：从一只玻璃瓶开始": "vase-glass", "手绑花束的螺旋技法": "monet", "干花制作的三种家常方法": "dried-eucalyptus",
    "秋日餐桌花：用枯枝与果实造景": "vase-clay", "鲜切花如何多开一周": "vase-morandi", "多肉浇水，“宁干勿湿”不是万能句": "succulent-trio",
    "绿萝黄叶的五个原因": "pothos", "冬季多肉入室指南": "succulent-garden", "叶插繁殖：一片叶子的新生": "succulent-pink",
    "办公桌上的小绿植怎么选": "snake-plant", "朝南阳台种菜一年记": "watering-can", "小番茄盆栽从播种到收获": "tomato",
    "用厨余自制阳台堆肥": "soil", "阳台香草：薄荷、罗勒与迷迭香": "fern", "绣球调色：蓝与粉的土壤秘密": "hydrangea-blue",
    "玫瑰的花语不止爱情": "rose-red", "向日葵：追光者的故事": "sunflower", "菊花在东西方的两种命运": "chrysanthemum",
    "康乃馨：一朵花与母亲节的由来": "carnation-pink", "桂花：秋天的一缕甜": "osmanthus", "植物与情绪：照料一盆花的疗愈力": "monstera",
    "书房里的一枝花": "vase-celadon", "用花草记录二十四节气": "pressed-flowers", "探病送花的讲究": "lily-white",
    "圣诞季的冬青与松枝花环": "wreath", "茶花养护：不掉苞的秘诀": "camellia", "兰花入门：从蝴蝶兰开始": "orchid",
    "中国兰的雅趣": "orchid-green", "节日送花礼仪：场合与花材对照": "box-love", "年宵花怎么挑：腊月的花市指南": "box-new-year",
}

# Author avatars by phone: one flower large on a round field.
AUTHOR_AVATARS = {
    "13700000001": ("blush", "tulip", "pink"), "13700000002": ("mint", "rosette", "green"),
    "13700000003": ("butter", "sunflower", "yellow"), "13700000004": ("lilac", "lily", "white"),
    "13700000005": ("sky", "peony", "pink"), "13700000006": ("cream", "peony", "red"),
}

# A flower or plant's second picture is a close-up of its scene on another background; anything
# else shows how it is packed (one picture shared by all, which keeps the demo small).
CLOSE_UP = {"花束": "translate(100 100) scale(1.9) translate(-100 -84)", "绿植": "translate(100 100) scale(1.5) translate(-100 -100)"}
SHARED_SECOND = "packaging"

SECOND_BACKGROUND = {"blush": "cream", "cream": "blush", "mint": "sky", "sky": "mint", "lilac": "blush", "butter": "cream",
                     "sand": "mint", "rosewood": "cream"}


def scene_svg(key, close_up=None):
    background, draw = SCENES[key]
    d = Drawing()
    draw(d)
    if close_up:
        return d.svg(SECOND_BACKGROUND[background], close_up)
    return d.svg(background)


def cover_svg(key):
    """An article's 16:9 cover: the scene in the middle, leaves and petals drifting either side."""
    background, draw = SCENES[key]
    d = Drawing(320, 180)
    d.add('<circle cx="160" cy="96" r="80" fill="#fff" opacity=".45"/>')
    for i, (x, y, a) in enumerate(((30, 40, -30), (58, 130, 20), (270, 36, 200), (292, 128, 150), (14, 100, 60), (306, 84, 240))):
        leaf(d, x, y, 28, a, LEAF if i % 2 else LEAF_DARK)
    for x, y in ((76, 30), (250, 150), (40, 160), (280, 20)):
        d.add(f'<circle cx="{x}" cy="{y}" r="3" fill="#fff" opacity=".8"/>')
    d.add('<g transform="translate(70 0) scale(.9)">')
    draw(d)
    d.add("</g>")
    return d.svg(background)


def avatar_svg(background, kind, colour):
    d = Drawing()
    d.add('<circle cx="100" cy="100" r="78" fill="#fff" opacity=".55"/>')
    leaf(d, 100, 112, 70, -150)
    leaf(d, 100, 112, 64, -30, LEAF_DARK)
    if kind == "rosette":
        rosette(d, 100, 100, colour, 3.4)
    else:
        d.head(kind, colour, 100, 96, 5)
    return d.svg(background)


# ---- files and examples ---------------------------------------------------------------------
def rewrite_catalog(text, wanted):
    """Points cover_url and image_urls of every row at the product's pictures (a second one where
    the row lists more than one image); records in `wanted` the files they need."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    header = rows[0]
    code, category = header.index("product_code"), header.index("category")
    cover, images = header.index("cover_url"), header.index("image_urls")
    for row in rows[1:]:
        key = PRODUCTS[row[code]]
        names = [f"{key}.svg"]
        wanted[names[0]] = lambda key=key: scene_svg(key)
        if len(row[images].split("|")) > 1:
            close_up = CLOSE_UP.get(row[category].split("/")[0])
            if close_up:
                names.append(f"{key}-2.svg")
                wanted[names[1]] = lambda key=key, close_up=close_up: scene_svg(key, close_up)
            else:
                names.append(f"{SHARED_SECOND}.svg")
                wanted[names[1]] = lambda: scene_svg(SHARED_SECOND)
        row[cover] = URL + names[0]
        row[images] = "|".join(URL + name for name in names)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def rewrite_jsonl(text, field, choose):
    lines = []
    for line in text.splitlines():
        entry = json.loads(line)
        entry[field] = URL + choose(entry)
        lines.append(json.dumps(entry, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def build():
    """Every file this script owns, path → text."""
    wanted = {}
    files = {CATALOG_PATH: rewrite_catalog(CATALOG_PATH.read_text(encoding="utf-8"), wanted)}

    def article(entry):
        key = ARTICLE_COVERS[entry["title"]]
        wanted[f"article-{key}.svg"] = lambda: cover_svg(key)
        return f"article-{key}.svg"

    def author(entry):
        art = AUTHOR_AVATARS[entry["phone"]]
        name = f"avatar-{art[1]}-{art[2]}.svg"
        wanted[name] = lambda: avatar_svg(*art)
        return name

    files[ARTICLES_PATH] = rewrite_jsonl(ARTICLES_PATH.read_text(encoding="utf-8"), "cover_url", article)
    files[AUTHORS_PATH] = rewrite_jsonl(AUTHORS_PATH.read_text(encoding="utf-8"), "avatar_url", author)
    for name, make in sorted(wanted.items()):
        files[OUT / name] = make()
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file differs from a fresh run")
    args = parser.parse_args()
    files = build()
    stale = sorted(p for p in OUT.glob("*.svg") if p not in files) if OUT.exists() else []
    differ = [p for p, text in files.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for p in differ + stale:
            print(f"out of date: {p.relative_to(ROOT)}")
        return 1 if differ or stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for p in stale:
        p.unlink()
    for p in differ:
        p.write_text(files[p], encoding="utf-8")
    svgs = [p for p in files if p.suffix == ".svg"]
    total = sum(len(files[p].encode()) for p in svgs)
    print(f"{len(svgs)} pictures, {total // 1024} KiB in {OUT.relative_to(ROOT)}; {len(differ)} files written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
