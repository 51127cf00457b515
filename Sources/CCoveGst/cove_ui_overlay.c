#include "cove_ui_overlay.h"
#include <gst/video/video.h>
#include <gst/video/video-overlay-composition.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

typedef struct {
    guint8 *pixels;
    gint stride, x, y, width, height, canvas_width, canvas_height;
} CoveLayer;

struct CoveUIOverlay {
    GMutex lock;
    CoveLayer layer;
    CoveLayer backdrop;
    /// Bumped whenever the layer changes: the cached composition is rebuilt for the next frame.
    guint generation;

    /// The composition blended into frames, for frames of `composition_width`×`composition_height`.
    GstVideoOverlayComposition *composition;
    guint composition_generation;
    gint composition_width, composition_height;
    /// Where the layer lands on those frames.
    GstVideoRectangle composition_rect;

    /// The frames' format, from the last caps event.
    GstVideoInfo info;
    gboolean has_info;

    /// The pixels under the layer on the last frame, before blending: what a recomposition restores.
    guint8 *stash;
    gsize stash_capacity;
    GstVideoRectangle stash_rect;
    GstClockTime stash_pts;
    gboolean stash_valid;

    gint64 last_frame_us;
    guint64 frames;

    /// The part of the window the last presentation covered with the layer (frame coordinates).
    GstVideoRectangle presented_rect;
    gboolean presented_valid;

    CoveUIFrameSizeCallback on_frame_size;
    gpointer context;

    /// The graphics context presentations draw with, made on first use for this connection and window.
    void *gc_connection;
    guint32 gc_window;
    guint32 gc;
};

CoveUIOverlay *cove_ui_overlay_new(CoveUIFrameSizeCallback on_frame_size, gpointer context) {
    CoveUIOverlay *overlay = g_new0(CoveUIOverlay, 1);
    g_mutex_init(&overlay->lock);
    overlay->on_frame_size = on_frame_size;
    overlay->context = context;
    overlay->stash_pts = GST_CLOCK_TIME_NONE;
    return overlay;
}

void cove_ui_overlay_free(CoveUIOverlay *overlay) {
    if (!overlay) return;
    g_free(overlay->layer.pixels);
    g_free(overlay->backdrop.pixels);
    if (overlay->composition) gst_video_overlay_composition_unref(overlay->composition);
    g_free(overlay->stash);
    // The graphics context went with its connection (see cove_ui_overlay_release_window): the connection
    // may be gone by now, and its file descriptor number another connection's.
    g_mutex_clear(&overlay->lock);
    g_free(overlay);
}

static void cove_layer_set(CoveLayer *layer, const guint8 *pixels, gint stride, gint x, gint y, gint width, gint height, gint canvas_width,
                           gint canvas_height) {
    g_free(layer->pixels);
    memset(layer, 0, sizeof(*layer));
    if (!pixels || width <= 0 || height <= 0 || stride < width * 4 || canvas_width <= 0 || canvas_height <= 0) return;
    layer->pixels = g_memdup2(pixels, (gsize)stride * (gsize)height);
    layer->stride = stride;
    layer->x = x;
    layer->y = y;
    layer->width = width;
    layer->height = height;
    layer->canvas_width = canvas_width;
    layer->canvas_height = canvas_height;
}

void cove_ui_overlay_set_layer(CoveUIOverlay *overlay, const guint8 *pixels, gint stride, gint x, gint y, gint width, gint height,
                               gint canvas_width, gint canvas_height) {
    g_mutex_lock(&overlay->lock);
    cove_layer_set(&overlay->layer, pixels, stride, x, y, width, height, canvas_width, canvas_height);
    overlay->generation++;
    g_mutex_unlock(&overlay->lock);
}

void cove_ui_overlay_set_backdrop(CoveUIOverlay *overlay, const guint8 *pixels, gint stride, gint x, gint y, gint width, gint height,
                                  gint canvas_width, gint canvas_height) {
    g_mutex_lock(&overlay->lock);
    cove_layer_set(&overlay->backdrop, pixels, stride, x, y, width, height, canvas_width, canvas_height);
    g_mutex_unlock(&overlay->lock);
}

/// The layer's place on frames of `width`×`height` (its canvas scaled to them).
static GstVideoRectangle cove_layer_rect(const CoveLayer *layer, gint width, gint height) {
    GstVideoRectangle rect = {0, 0, 0, 0};
    if (!layer->pixels) return rect;
    gdouble sx = (gdouble)width / layer->canvas_width, sy = (gdouble)height / layer->canvas_height;
    rect.x = (gint)(layer->x * sx + 0.5);
    rect.y = (gint)(layer->y * sy + 0.5);
    rect.w = MAX(1, (gint)(layer->width * sx + 0.5));
    rect.h = MAX(1, (gint)(layer->height * sy + 0.5));
    return rect;
}

static GstVideoOverlayRectangle *cove_layer_rectangle(const CoveLayer *layer, gint width, gint height) {
    if (!layer->pixels) return NULL;
    GstBuffer *buffer = gst_buffer_new_memdup(layer->pixels, (gsize)layer->stride * (gsize)layer->height);
    gsize offsets[GST_VIDEO_MAX_PLANES] = {0};
    gint strides[GST_VIDEO_MAX_PLANES] = {layer->stride};
    gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB, layer->width, layer->height, 1,
                                   offsets, strides);
    GstVideoRectangle rect = cove_layer_rect(layer, width, height);
    GstVideoOverlayRectangle *rectangle =
        gst_video_overlay_rectangle_new_raw(buffer, rect.x, rect.y, rect.w, rect.h, GST_VIDEO_OVERLAY_FORMAT_FLAG_PREMULTIPLIED_ALPHA);
    gst_buffer_unref(buffer);
    return rectangle;
}

/// A composition of the backdrop (when asked) and the layer for frames of `width`×`height`; NULL when empty.
static GstVideoOverlayComposition *cove_make_composition(CoveUIOverlay *overlay, gint width, gint height, gboolean with_backdrop) {
    GstVideoOverlayComposition *composition = NULL;
    GstVideoOverlayRectangle *rectangles[2] = {
        with_backdrop ? cove_layer_rectangle(&overlay->backdrop, width, height) : NULL,
        cove_layer_rectangle(&overlay->layer, width, height),
    };
    for (int i = 0; i < 2; i++) {
        if (!rectangles[i]) continue;
        if (!composition) composition = gst_video_overlay_composition_new(rectangles[i]);
        else gst_video_overlay_composition_add_rectangle(composition, rectangles[i]);
        gst_video_overlay_rectangle_unref(rectangles[i]);
    }
    return composition;
}

/// Brings the layer's place on frames of this size up to date (lock held); FALSE when there is no layer.
/// The composition itself is built only when the general blender needs it (`cove_current_composition`).
static gboolean cove_update_placement(CoveUIOverlay *overlay, gint width, gint height) {
    if (!overlay->layer.pixels) return FALSE;
    if (overlay->composition_generation != overlay->generation || overlay->composition_width != width || overlay->composition_height != height) {
        if (overlay->composition) gst_video_overlay_composition_unref(overlay->composition);
        overlay->composition = NULL;
        overlay->composition_generation = overlay->generation;
        overlay->composition_width = width;
        overlay->composition_height = height;
        overlay->composition_rect = cove_layer_rect(&overlay->layer, width, height);
    }
    return TRUE;
}

/// The composition for frames of this size, built when first needed after the layer or the size changed
/// (lock held); NULL when there is no layer.
static GstVideoOverlayComposition *cove_current_composition(CoveUIOverlay *overlay, gint width, gint height) {
    if (!cove_update_placement(overlay, width, height)) return NULL;
    if (!overlay->composition) overlay->composition = cove_make_composition(overlay, width, height, FALSE);
    return overlay->composition ? gst_video_overlay_composition_ref(overlay->composition) : NULL;
}

/// One plane, four bytes a pixel: the formats a window sink and the RGBA frame output use.
static gboolean cove_is_packed32(const GstVideoInfo *info) {
    return GST_VIDEO_INFO_N_PLANES(info) == 1 && GST_VIDEO_INFO_COMP_PSTRIDE(info, 0) == 4;
}

static GstVideoRectangle cove_clip(GstVideoRectangle rect, gint width, gint height) {
    gint x0 = CLAMP(rect.x, 0, width), y0 = CLAMP(rect.y, 0, height);
    gint x1 = CLAMP(rect.x + rect.w, 0, width), y1 = CLAMP(rect.y + rect.h, 0, height);
    GstVideoRectangle clipped = {x0, y0, x1 - x0, y1 - y0};
    return clipped;
}

/// Keeps the pixels under `rect` (lock held) so a recomposition can take the layer off again.
static void cove_stash(CoveUIOverlay *overlay, GstVideoFrame *frame, GstVideoRectangle rect) {
    overlay->stash_valid = FALSE;
    if (!cove_is_packed32(&frame->info)) return;
    rect = cove_clip(rect, GST_VIDEO_FRAME_WIDTH(frame), GST_VIDEO_FRAME_HEIGHT(frame));
    if (rect.w <= 0 || rect.h <= 0) return;
    gsize needed = (gsize)rect.w * 4 * (gsize)rect.h;
    if (overlay->stash_capacity < needed) {
        g_free(overlay->stash);
        overlay->stash = g_malloc(needed);
        overlay->stash_capacity = needed;
    }
    const guint8 *base = GST_VIDEO_FRAME_PLANE_DATA(frame, 0);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(frame, 0);
    for (gint row = 0; row < rect.h; row++) {
        memcpy(overlay->stash + (gsize)row * rect.w * 4, base + (gsize)(rect.y + row) * stride + (gsize)rect.x * 4, (gsize)rect.w * 4);
    }
    overlay->stash_rect = rect;
    overlay->stash_pts = GST_BUFFER_PTS(frame->buffer);
    overlay->stash_valid = TRUE;
}

/// Where red, green and blue are in a packed 32-bit format, and whether it has alpha; FALSE for others.
static gboolean cove_packed_order(GstVideoFormat format, int *r, int *g, int *b, int *a) {
    switch (format) {
    case GST_VIDEO_FORMAT_BGRx: *b = 0; *g = 1; *r = 2; *a = -1; return TRUE;
    case GST_VIDEO_FORMAT_BGRA: *b = 0; *g = 1; *r = 2; *a = 3; return TRUE;
    case GST_VIDEO_FORMAT_RGBx: *r = 0; *g = 1; *b = 2; *a = -1; return TRUE;
    case GST_VIDEO_FORMAT_RGBA: *r = 0; *g = 1; *b = 2; *a = 3; return TRUE;
    case GST_VIDEO_FORMAT_xRGB: *r = 1; *g = 2; *b = 3; *a = -1; return TRUE;
    case GST_VIDEO_FORMAT_ARGB: *r = 1; *g = 2; *b = 3; *a = 0; return TRUE;
    case GST_VIDEO_FORMAT_xBGR: *b = 1; *g = 2; *r = 3; *a = -1; return TRUE;
    case GST_VIDEO_FORMAT_ABGR: *b = 1; *g = 2; *r = 3; *a = 0; return TRUE;
    default: return FALSE;
    }
}

/// x × y / 255, rounded, for bytes.
static inline guint8 cove_mul255(guint32 x, guint32 y) {
    guint32 t = x * y + 128;
    return (guint8)((t + (t >> 8)) >> 8);
}

/// One row of premultiplied BGRA over BGRx/BGRA, a pixel as one 32-bit word: d = s + d × (255 − α) / 255,
/// red and blue in one multiply, green and alpha (or the unused byte) in the other. `keeps_alpha` says
/// whether the frame's fourth byte is alpha (composed like the colours) or padding (left alone).
static void cove_blend_row_bgra(const guint8 *restrict source, guint8 *restrict destination, gint width, gboolean keeps_alpha) {
    const guint32 *src = (const guint32 *)source;
    guint32 *dst = (guint32 *)destination;
    for (gint i = 0; i < width; i++) {
        guint32 s = src[i];
        guint32 keep = 255 - (s >> 24);
        guint32 d = dst[i];
        guint32 rb = (d & 0x00FF00FFu) * keep + 0x00800080u;
        rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
        guint32 ga = ((d >> 8) & 0x00FF00FFu) * keep + 0x00800080u;
        ga = (ga + ((ga >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
        guint32 blended = s + (rb | ga);
        dst[i] = keeps_alpha ? blended : ((blended & 0x00FFFFFFu) | (d & 0xFF000000u));
    }
}

/// Blends the layer's premultiplied BGRA pixels straight over a packed 32-bit frame (no scaling): the
/// common case of a window or RGBA frames, at a few nanoseconds a pixel — GStreamer's general blender
/// converts every line to and from ARGB, which costs several times more. Transparent pixels are skipped,
/// opaque ones copied. FALSE when the frame or the placement needs the general blender.
static gboolean cove_blend_fast(CoveUIOverlay *overlay, GstVideoRectangle rect, GstVideoFrame *frame) {
    const CoveLayer *layer = &overlay->layer;
    int r, g, b, a;
    if (!layer->pixels || rect.w != layer->width || rect.h != layer->height) return FALSE;
    if (!cove_packed_order(GST_VIDEO_FRAME_FORMAT(frame), &r, &g, &b, &a)) return FALSE;
    GstVideoRectangle clipped = cove_clip(rect, GST_VIDEO_FRAME_WIDTH(frame), GST_VIDEO_FRAME_HEIGHT(frame));
    overlay->stash_valid = FALSE;
    if (clipped.w <= 0 || clipped.h <= 0) return TRUE;
    // The pixels under the layer are kept as they are read, in the same pass (see cove_stash).
    gsize needed = (gsize)clipped.w * 4 * (gsize)clipped.h;
    if (overlay->stash_capacity < needed) {
        g_free(overlay->stash);
        overlay->stash = g_malloc(needed);
        overlay->stash_capacity = needed;
    }
    guint8 *base = GST_VIDEO_FRAME_PLANE_DATA(frame, 0);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(frame, 0);
    // The frame's bytes in the layer's own order (BGRx/BGRA: what X11's usual visual takes): whole
    // pixels at a time, two channels per multiply, which the compiler vectorises.
    gboolean same_order = b == 0 && g == 1 && r == 2;
    for (gint row = 0; row < clipped.h; row++) {
        const guint8 *src = layer->pixels + (gsize)(clipped.y - rect.y + row) * layer->stride + (gsize)(clipped.x - rect.x) * 4;
        guint8 *dst = base + (gsize)(clipped.y + row) * stride + (gsize)clipped.x * 4;
        memcpy(overlay->stash + (gsize)row * clipped.w * 4, dst, (gsize)clipped.w * 4);
        if (same_order) {
            cove_blend_row_bgra(src, dst, clipped.w, a >= 0);
            continue;
        }
        for (gint column = 0; column < clipped.w; column++, src += 4, dst += 4) {
            guint32 alpha = src[3];
            if (alpha == 0) continue;
            if (alpha == 255) {
                dst[b] = src[0];
                dst[g] = src[1];
                dst[r] = src[2];
                if (a >= 0) dst[a] = 255;
                continue;
            }
            guint32 keep = 255 - alpha;
            dst[b] = (guint8)(src[0] + cove_mul255(dst[b], keep));
            dst[g] = (guint8)(src[1] + cove_mul255(dst[g], keep));
            dst[r] = (guint8)(src[2] + cove_mul255(dst[r], keep));
            if (a >= 0) dst[a] = (guint8)(alpha + cove_mul255(dst[a], keep));
        }
    }
    overlay->stash_rect = clipped;
    overlay->stash_pts = GST_BUFFER_PTS(frame->buffer);
    overlay->stash_valid = TRUE;
    return TRUE;
}

static GstPadProbeReturn cove_ui_overlay_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    CoveUIOverlay *overlay = data;
    if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
        GstCaps *caps = NULL;
        gst_event_parse_caps(event, &caps);
        GstVideoInfo parsed;
        if (!caps || !gst_video_info_from_caps(&parsed, caps)) return GST_PAD_PROBE_OK;
        g_mutex_lock(&overlay->lock);
        gboolean resized = !overlay->has_info || GST_VIDEO_INFO_WIDTH(&overlay->info) != GST_VIDEO_INFO_WIDTH(&parsed) ||
                           GST_VIDEO_INFO_HEIGHT(&overlay->info) != GST_VIDEO_INFO_HEIGHT(&parsed);
        overlay->info = parsed;
        overlay->has_info = TRUE;
        overlay->stash_valid = FALSE;
        g_mutex_unlock(&overlay->lock);
        if (resized && overlay->on_frame_size) overlay->on_frame_size(GST_VIDEO_INFO_WIDTH(&parsed), GST_VIDEO_INFO_HEIGHT(&parsed), overlay->context);
        return GST_PAD_PROBE_OK;
    }
    if (!(info->type & GST_PAD_PROBE_TYPE_BUFFER)) return GST_PAD_PROBE_OK;

    g_mutex_lock(&overlay->lock);
    overlay->frames++;
    overlay->last_frame_us = g_get_monotonic_time();
    GstVideoInfo frame_info;
    gboolean placed = FALSE;
    if (overlay->has_info) {
        frame_info = overlay->info;
        placed = cove_update_placement(overlay, GST_VIDEO_INFO_WIDTH(&frame_info), GST_VIDEO_INFO_HEIGHT(&frame_info));
    }
    if (!placed) overlay->stash_valid = FALSE;
    g_mutex_unlock(&overlay->lock);
    if (!placed) return GST_PAD_PROBE_OK;

    // The sink is the only owner of a frame on its way in (a new buffer from the converter, or one of
    // the sink's own pool): writable as it is; otherwise this copies it.
    GstBuffer *buffer = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    GstVideoFrame frame;
    if (gst_video_frame_map(&frame, &frame_info, buffer, GST_MAP_READWRITE)) {
        g_mutex_lock(&overlay->lock);
        // The layer's pixels are read under the lock: a new picture may replace them at any moment.
        gboolean fast = cove_blend_fast(overlay, overlay->composition_rect, &frame);
        GstVideoOverlayComposition *composition = NULL;
        if (!fast) {
            cove_stash(overlay, &frame, overlay->composition_rect);
            composition = cove_current_composition(overlay, GST_VIDEO_INFO_WIDTH(&frame_info), GST_VIDEO_INFO_HEIGHT(&frame_info));
        }
        g_mutex_unlock(&overlay->lock);
        if (composition) {
            gst_video_overlay_composition_blend(composition, &frame);
            gst_video_overlay_composition_unref(composition);
        }
        gst_video_frame_unmap(&frame);
    }
    return GST_PAD_PROBE_OK;
}

gulong cove_ui_overlay_attach(CoveUIOverlay *overlay, GstPad *pad) {
    return gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, cove_ui_overlay_probe, overlay, NULL);
}

void cove_ui_overlay_detach(CoveUIOverlay *overlay, GstPad *pad, gulong probe) {
    (void)overlay;
    if (pad && probe) gst_pad_remove_probe(pad, probe);
}

gint64 cove_ui_overlay_last_frame_time(CoveUIOverlay *overlay) {
    g_mutex_lock(&overlay->lock);
    gint64 time = overlay->last_frame_us;
    g_mutex_unlock(&overlay->lock);
    return time;
}

guint64 cove_ui_overlay_frame_count(CoveUIOverlay *overlay) {
    g_mutex_lock(&overlay->lock);
    guint64 frames = overlay->frames;
    g_mutex_unlock(&overlay->lock);
    return frames;
}

// MARK: Presenting while frames do not flow

void cove_ui_overlay_release_window(CoveUIOverlay *overlay) {
    if (overlay->gc_connection && overlay->gc) {
        xcb_free_gc(overlay->gc_connection, overlay->gc);
        xcb_flush(overlay->gc_connection);
    }
    overlay->gc_connection = NULL;
    overlay->gc = 0;
    overlay->gc_window = 0;
}

static gboolean cove_ensure_gc(CoveUIOverlay *overlay, xcb_connection_t *connection, guint32 window) {
    if (overlay->gc_connection == connection && overlay->gc_window == window && overlay->gc) return TRUE;
    if (overlay->gc_connection && overlay->gc) xcb_free_gc(overlay->gc_connection, overlay->gc);
    overlay->gc = xcb_generate_id(connection);
    xcb_void_cookie_t cookie = xcb_create_gc_checked(connection, overlay->gc, window, 0, NULL);
    xcb_generic_error_t *error = xcb_request_check(connection, cookie);
    if (error) {
        free(error);
        overlay->gc = 0;
        overlay->gc_connection = NULL;
        return FALSE;
    }
    overlay->gc_connection = connection;
    overlay->gc_window = window;
    return TRUE;
}

/// Puts the `rect` part of a `width`-pixel-wide BGRx picture (`stride` bytes a row) at (`ox`, `oy`) in the
/// window, in requests small enough for any server.
static void cove_put(xcb_connection_t *connection, guint32 window, guint32 gc, const guint8 *pixels, gint stride, GstVideoRectangle rect,
                     gint ox, gint oy, gint window_width, gint window_height) {
    // Clip to the window.
    gint x0 = MAX(rect.x, -ox), y0 = MAX(rect.y, -oy);
    gint x1 = MIN(rect.x + rect.w, window_width - ox), y1 = MIN(rect.y + rect.h, window_height - oy);
    if (x1 <= x0 || y1 <= y0) return;
    gint width = x1 - x0;
    gint rows_per_request = MAX(1, (256 * 1024) / (width * 4));
    guint8 *chunk = g_malloc((gsize)width * 4 * (gsize)MIN(rows_per_request, y1 - y0));
    for (gint y = y0; y < y1; y += rows_per_request) {
        gint rows = MIN(rows_per_request, y1 - y);
        for (gint row = 0; row < rows; row++) memcpy(chunk + (gsize)row * width * 4, pixels + (gsize)(y + row) * stride + (gsize)x0 * 4, (gsize)width * 4);
        xcb_put_image(connection, XCB_IMAGE_FORMAT_Z_PIXMAP, window, gc, width, rows, x0 + ox, y + oy, 0, 24, (guint32)width * 4 * rows, chunk);
    }
    g_free(chunk);
    xcb_flush(connection);
}

static GstVideoRectangle cove_union(GstVideoRectangle a, GstVideoRectangle b) {
    if (a.w <= 0 || a.h <= 0) return b;
    if (b.w <= 0 || b.h <= 0) return a;
    gint x0 = MIN(a.x, b.x), y0 = MIN(a.y, b.y);
    GstVideoRectangle u = {x0, y0, MAX(a.x + a.w, b.x + b.w) - x0, MAX(a.y + a.h, b.y + b.h) - y0};
    return u;
}

/// Blends `composition` into a packed BGRx picture held in `pixels`.
static void cove_blend_into(GstVideoOverlayComposition *composition, guint8 *pixels, gint width, gint height, gint stride, GstVideoFormat format) {
    if (!composition) return;
    GstVideoInfo info;
    GstBuffer *buffer = gst_buffer_new_wrapped_full(0, pixels, (gsize)stride * height, 0, (gsize)stride * height, NULL, NULL);
    gsize offsets[GST_VIDEO_MAX_PLANES] = {0};
    gint strides[GST_VIDEO_MAX_PLANES] = {stride};
    gst_video_info_set_format(&info, format, width, height);
    info.stride[0] = stride;
    info.size = (gsize)stride * height;
    gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, format, width, height, 1, offsets, strides);
    GstVideoFrame frame;
    if (gst_video_frame_map(&frame, &info, buffer, GST_MAP_READWRITE)) {
        gst_video_overlay_composition_blend(composition, &frame);
        gst_video_frame_unmap(&frame);
    }
    gst_buffer_unref(buffer);
}

/// The sink's last frame with the stashed region put back and the current layer blended in, put into the window.
static gboolean cove_present_frame(CoveUIOverlay *overlay, xcb_connection_t *connection, guint32 window, gint window_width, gint window_height,
                                   GstElement *sink, gboolean full) {
    GstSample *sample = NULL;
    g_object_get(sink, "last-sample", &sample, NULL);
    if (!sample) return FALSE;
    gboolean presented = FALSE;
    GstCaps *caps = gst_sample_get_caps(sample);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstVideoInfo info;
    if (caps && buffer && gst_video_info_from_caps(&info, caps) && cove_is_packed32(&info)) {
        GstVideoFrame frame;
        if (gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ)) {
            gint width = GST_VIDEO_FRAME_WIDTH(&frame), height = GST_VIDEO_FRAME_HEIGHT(&frame);
            gint stride = width * 4;
            guint8 *pixels = g_malloc((gsize)stride * height);
            const guint8 *source = GST_VIDEO_FRAME_PLANE_DATA(&frame, 0);
            gint source_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
            for (gint row = 0; row < height; row++) memcpy(pixels + (gsize)row * stride, source + (gsize)row * source_stride, stride);
            GstClockTime pts = GST_BUFFER_PTS(buffer);
            gst_video_frame_unmap(&frame);

            g_mutex_lock(&overlay->lock);
            GstVideoRectangle dirty = {0, 0, 0, 0};
            if (overlay->stash_valid && overlay->stash_pts == pts && overlay->stash_rect.x + overlay->stash_rect.w <= width &&
                overlay->stash_rect.y + overlay->stash_rect.h <= height) {
                GstVideoRectangle r = overlay->stash_rect;
                for (gint row = 0; row < r.h; row++)
                    memcpy(pixels + (gsize)(r.y + row) * stride + (gsize)r.x * 4, overlay->stash + (gsize)row * r.w * 4, (gsize)r.w * 4);
                dirty = r;
            }
            GstVideoOverlayComposition *composition = cove_make_composition(overlay, width, height, FALSE);
            GstVideoRectangle layer = cove_layer_rect(&overlay->layer, width, height);
            if (overlay->presented_valid) dirty = cove_union(dirty, overlay->presented_rect);
            dirty = cove_union(dirty, layer);
            overlay->presented_rect = layer;
            overlay->presented_valid = TRUE;
            g_mutex_unlock(&overlay->lock);

            cove_blend_into(composition, pixels, width, height, stride, GST_VIDEO_INFO_FORMAT(&info));
            if (composition) gst_video_overlay_composition_unref(composition);
            if (full) {
                GstVideoRectangle whole = {0, 0, width, height};
                dirty = whole;
            }
            // ximagesink centres a picture that does not fill the window.
            cove_put(connection, window, overlay->gc, pixels, stride, cove_clip(dirty, width, height), (window_width - width) / 2,
                     (window_height - height) / 2, window_width, window_height);
            g_free(pixels);
            presented = TRUE;
        }
    }
    gst_sample_unref(sample);
    return presented;
}

/// No frame yet (or no video at all): the backdrop and the layer on black, the whole window.
static gboolean cove_present_canvas(CoveUIOverlay *overlay, xcb_connection_t *connection, guint32 window, gint width, gint height) {
    gint stride = width * 4;
    guint8 *pixels = g_malloc0((gsize)stride * height);
    g_mutex_lock(&overlay->lock);
    GstVideoOverlayComposition *composition = cove_make_composition(overlay, width, height, TRUE);
    overlay->presented_valid = FALSE;
    g_mutex_unlock(&overlay->lock);
    cove_blend_into(composition, pixels, width, height, stride, GST_VIDEO_FORMAT_BGRx);
    if (composition) gst_video_overlay_composition_unref(composition);
    GstVideoRectangle whole = {0, 0, width, height};
    cove_put(connection, window, overlay->gc, pixels, stride, whole, 0, 0, width, height);
    g_free(pixels);
    return TRUE;
}

gboolean cove_ui_overlay_present(CoveUIOverlay *overlay, void *connection, guint32 window, gint window_width, gint window_height,
                                 GstElement *sink, gboolean full) {
    if (!overlay || !connection || !window || window_width <= 0 || window_height <= 0) return FALSE;
    if (!cove_ensure_gc(overlay, connection, window)) return FALSE;
    if (cove_ui_overlay_frame_count(overlay) > 0 && sink && cove_present_frame(overlay, connection, window, window_width, window_height, sink, full))
        return TRUE;
    return cove_present_canvas(overlay, connection, window, window_width, window_height);
}
