"""Test pictures made with libvips through ctypes (no Python imaging package needed): photo-like
JPEGs (several octaves of Perlin noise per channel, a spectrum close to a real photo's, so they
compress like one rather than like a flat colour) and decompression bombs (PNGs whose header
promises far more pixels than their few hundred KiB hold, a JPEG whose header says 60000 x 60000).

    python3 scripts/photos.py photo OUT.jpg [--seed N] [--size 4000x3000]
"""
import ctypes
import struct
import sys
import zlib

_vips = None
P = ctypes.c_void_p
D = ctypes.c_double
UCHAR = 0        # VIPS_FORMAT_UCHAR
SRGB = 22        # VIPS_INTERPRETATION_sRGB


def vips():
    global _vips
    if _vips is None:
        _vips = ctypes.CDLL("libvips.so.42")
        _vips.vips_error_buffer.restype = ctypes.c_char_p
        if _vips.vips_init(b"floral-tests") != 0:
            raise RuntimeError("libvips did not start")
    return _vips


def _check(status):
    if status != 0:
        raise RuntimeError(vips().vips_error_buffer().decode(errors="replace"))


def _out(call, *args, before=()):
    """Calls a libvips operation whose output image is its first argument after `before`."""
    out = P()
    _check(call(*before, ctypes.byref(out), *args, None))
    return out


def photo(path, width=4000, height=3000, seed=1, quality=90):
    """Writes a photo-like JPEG of width x height (EXIF-free) to `path`."""
    v = vips()
    small_w, small_h = max(width // 4, 8), max(height // 4, 8)
    bands = []
    for channel in range(3):
        total = None
        for cell, amplitude in ((150, 1.0), (40, 0.5), (10, 0.25), (3, 0.12)):
            layer = _out(v.vips_perlin, small_w, small_h, b"cell_size", cell, b"seed", seed * 31 + channel * 7 + cell)
            layer = _out(v.vips_linear1, D(amplitude), D(0.0), before=(layer,))
            total = layer if total is None else _out(v.vips_add, before=(total, layer))
        total = _out(v.vips_linear1, D(60.0), D(128.0), before=(total,))
        total = _out(v.vips_resize, D(width / small_w), b"vscale", D(height / small_h), before=(total,))
        bands.append(total)
    joined = _out(v.vips_bandjoin, 3, before=((P * 3)(*bands),))
    image = _out(v.vips_cast, UCHAR, before=(joined,))
    image = _out(v.vips_copy, b"interpretation", SRGB, before=(image,))
    _check(v.vips_jpegsave(image, path.encode(), b"Q", quality, None))


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bomb(width, height, channels=1, truncate_to=None):
    """A PNG of width x height (grey, or RGB with channels=3) whose pixels are all zero: a few
    hundred KiB that decode to width * height * channels bytes. `truncate_to`: keep only that many
    bytes of the compressed pixels (a damaged file that fails part-way through decoding)."""
    colour = {1: 0, 3: 2}[channels]
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    packer = zlib.compressobj(9)
    row = 1 + width * channels
    rows_per_step = max(1, (8 << 20) // row)
    block = bytes(row * rows_per_step)
    parts, left = [], height
    while left > 0:
        step = min(left, rows_per_step)
        parts.append(packer.compress(block if step == rows_per_step else bytes(row * step)))
        left -= step
    parts.append(packer.flush())
    data = b"".join(parts)
    if truncate_to is not None:
        data = data[:truncate_to]
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def jpeg_bomb(path_of_small_jpeg, width=60000, height=60000):
    """A real small JPEG whose frame header (SOF) is changed to say width x height."""
    data = bytearray(open(path_of_small_jpeg, "rb").read())
    i = 2
    while i < len(data):
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xC2:
            data[i + 5:i + 9] = struct.pack(">HH", height, width)
            return bytes(data)
        i += 2 + length
    raise ValueError("no frame header")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "photo":
        seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
        size = sys.argv[sys.argv.index("--size") + 1] if "--size" in sys.argv else "4000x3000"
        w, h = (int(x) for x in size.split("x"))
        photo(sys.argv[2], w, h, seed)
    else:
        print(__doc__)
        sys.exit(2)
