#ifndef FLORAL_CVIPS_SHIM_H
#define FLORAL_CVIPS_SHIM_H
#include <stddef.h>
#include <vips/vips.h>

// libvips' calls take their options as NULL-terminated varargs, which Swift cannot call: each
// helper below fixes the options the shop uses.

/// libvips' warnings (a damaged file's "error in tile") go nowhere: the caller's error says enough.
static void floral_vips_quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/// Starts libvips once: one worker thread per operation and no operation cache, so memory stays bounded.
static inline int floral_vips_init(void) {
    if (VIPS_INIT("floral-shop")) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, floral_vips_quiet, NULL);
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    return 0;
}

/// The image in `data`, header only: pixels are decoded later, top to bottom, and any damage fails.
static inline VipsImage *floral_vips_open(const void *data, size_t length) {
    return vips_image_new_from_buffer(data, length, "", "access", VIPS_ACCESS_SEQUENTIAL,
                                      "fail_on", VIPS_FAIL_ON_WARNING, NULL);
}

/// The loader libvips picks for `data` (`jpegload_buffer`, `pngload_buffer`, …), or NULL.
static inline const char *floral_vips_loader(const void *data, size_t length) {
    return vips_foreign_find_load_buffer(data, length);
}

/// `data` shrunk (never enlarged) to fit `size` × `size`, turned by its EXIF orientation and into sRGB
/// (CMYK included); the first page only (an animation's first frame). Decoding fails on damage.
static inline int floral_vips_thumbnail(const void *data, size_t length, int size, VipsImage **out) {
    return vips_thumbnail_buffer((void *)data, length, out, size, "height", size, "size", VIPS_SIZE_DOWN,
                                 "option_string", "fail_on=warning", "export_profile", "srgb", NULL);
}

/// `in` (an image already in memory) shrunk to fit `size` × `size`, never enlarged: the smaller
/// sizes are made from the largest, so the original is decoded once.
static inline int floral_vips_thumbnail_image(VipsImage *in, int size, VipsImage **out) {
    return vips_thumbnail_image(in, out, size, "height", size, "size", VIPS_SIZE_DOWN, NULL);
}

/// `in` in sRGB (or kept grey), three or four bands.
static inline int floral_vips_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

/// `in` with any alpha flattened onto white (JPEG has no transparency).
static inline int floral_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = {255, 255, 255};
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

/// A baseline JPEG without any metadata (no EXIF, XMP, IPTC or ICC profile).
static inline int floral_vips_jpeg(VipsImage *in, int quality, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
}

/// A lossy WebP without any metadata; `effort` 0 (fastest) ... 6 (smallest), libvips' default 4.
static inline int floral_vips_webp(VipsImage *in, int quality, int effort, void **buffer, size_t *length) {
    return vips_webpsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, "effort", effort, NULL);
}

/// A PNG without any metadata.
static inline int floral_vips_png(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "strip", TRUE, NULL);
}

/// A black image of `width` × `height` with `bands` bands (tests draw on it).
static inline int floral_vips_black(int width, int height, int bands, VipsImage **out) {
    return vips_black(out, width, height, "bands", bands, NULL);
}

/// `in` as 8-bit (tests build images in other formats).
static inline int floral_vips_cast_uchar(VipsImage *in, VipsImage **out) {
    return vips_cast(in, out, VIPS_FORMAT_UCHAR, NULL);
}

/// `in` + `constant` per band.
static inline int floral_vips_linear(VipsImage *in, const double *a, const double *b, int n, VipsImage **out) {
    return vips_linear(in, out, a, b, n, "uchar", TRUE, NULL);
}

/// The interpretation libvips gives `image` (sRGB, CMYK, B_W, …).
static inline VipsInterpretation floral_vips_interpretation(VipsImage *image) {
    return vips_image_get_interpretation(image);
}

static void floral_vips_unref_on_close(VipsImage *image, gpointer other) {
    (void)image;
    g_object_unref(other);
}

/// `in`'s pixels copied into memory under a fresh header that carries no metadata at all (no EXIF,
/// XMP, IPTC or ICC profile): libvips' WebP saver writes what an image carries even with `strip`.
/// The pixels are copied once: the bare header points at the copy and keeps it until it closes.
/// Decodes every pixel, so a truncated or damaged file fails here (NULL).
static inline VipsImage *floral_vips_bare_copy(VipsImage *in) {
    VipsImage *memory = vips_image_copy_memory(in);
    if (!memory) return NULL;
    const void *data = vips_image_get_data(memory);
    VipsImage *bare = data ? vips_image_new_from_memory(data, VIPS_IMAGE_SIZEOF_IMAGE(memory), memory->Xsize,
                                                       memory->Ysize, memory->Bands, memory->BandFmt) : NULL;
    if (!bare) {
        g_object_unref(memory);
        return NULL;
    }
    g_signal_connect(bare, "postclose", G_CALLBACK(floral_vips_unref_on_close), memory);
    return bare;
}

/// Takes another reference to an image.
static inline void floral_vips_retain(VipsImage *image) {
    g_object_ref(image);
}

/// Drops a reference to an image.
static inline void floral_vips_release(VipsImage *image) {
    g_object_unref(image);
}

/// Frees a buffer libvips returned.
static inline void floral_vips_free(void *buffer) {
    g_free(buffer);
}

/// The last error libvips recorded on this thread's behalf, cleared.
static inline const char *floral_vips_error(void) {
    return vips_error_buffer();
}

static inline void floral_vips_error_clear(void) {
    vips_error_clear();
}

/// Clears per-thread state libvips keeps (call before a worker thread ends).
static inline void floral_vips_thread_done(void) {
    vips_thread_shutdown();
}

/// Whether a field (`exif-data`, `icc-profile-data`, `xmp-data`) is attached to `image`.
static inline int floral_vips_has_field(VipsImage *image, const char *name) {
    return vips_image_get_typeof(image, name) != 0;
}

/// A JPEG in CMYK (tests only): `in` must have four bands.
static inline int floral_vips_jpeg_cmyk(VipsImage *in, void **buffer, size_t *length) {
    VipsImage *copy = NULL;
    if (vips_copy(in, &copy, "interpretation", VIPS_INTERPRETATION_CMYK, NULL)) return -1;
    int result = vips_jpegsave_buffer(copy, buffer, length, "Q", 90, NULL);
    g_object_unref(copy);
    return result;
}

/// An animated WebP of `pages` frames stacked in `in` (tests only).
static inline int floral_vips_webp_animated(VipsImage *in, int page_height, void **buffer, size_t *length) {
    VipsImage *copy = NULL;
    if (vips_copy(in, &copy, NULL)) return -1;
    vips_image_set_int(copy, "page-height", page_height);
    int result = vips_webpsave_buffer(copy, buffer, length, NULL);
    g_object_unref(copy);
    return result;
}

/// Decodes an SVG (librsvg) and writes it as a PNG no larger than `size` (share-page pictures).
static inline int floral_vips_svg_to_png(const void *data, size_t length, int size, void **buffer, size_t *out_length) {
    VipsImage *image = NULL;
    if (vips_thumbnail_buffer((void *)data, length, &image, size, "height", size, NULL)) return -1;
    int result = vips_pngsave_buffer(image, buffer, out_length, "strip", TRUE, NULL);
    g_object_unref(image);
    return result;
}

#endif
