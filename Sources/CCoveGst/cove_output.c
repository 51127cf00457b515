#include "cove_output.h"
#include <gst/app/gstappsink.h>
#include <gst/audio/audio.h>
#include <gst/video/colorbalance.h>
#include <gst/video/video.h>
#include <gst/video/videooverlay.h>
#include <stdlib.h>
#include <xcb/xcb.h>
#include <X11/Xlib.h>

static XErrorHandler cove_previous_x_handler = NULL;
static gint cove_x_errors = 0;
static GMutex cove_x_windows_lock;
static GHashTable *cove_x_windows = NULL;  // embedded window ID → how many pipelines use it

static gboolean cove_x_window_registered(XID resource) {
    g_mutex_lock(&cove_x_windows_lock);
    gboolean found = cove_x_windows && g_hash_table_contains(cove_x_windows, GUINT_TO_POINTER((guint)resource));
    g_mutex_unlock(&cove_x_windows_lock);
    return found;
}

static int cove_x_error_handler(Display *display, XErrorEvent *event) {
    if (cove_x_window_registered(event->resourceid)) {
        // Drawing into an embedded window the app has destroyed: not worth ending the process for.
        g_atomic_int_inc(&cove_x_errors);
        return 0;
    }
    if (cove_previous_x_handler) return cove_previous_x_handler(display, event);
    return 0;
}

void cove_install_x_error_handler(void) {
    static gsize installed = 0;
    if (g_once_init_enter(&installed)) {
        cove_previous_x_handler = XSetErrorHandler(cove_x_error_handler);
        g_once_init_leave(&installed, 1);
    }
}

void cove_x_register_window(guint32 window) {
    g_mutex_lock(&cove_x_windows_lock);
    if (!cove_x_windows) cove_x_windows = g_hash_table_new(g_direct_hash, g_direct_equal);
    guint count = GPOINTER_TO_UINT(g_hash_table_lookup(cove_x_windows, GUINT_TO_POINTER(window)));
    g_hash_table_insert(cove_x_windows, GUINT_TO_POINTER(window), GUINT_TO_POINTER(count + 1));
    g_mutex_unlock(&cove_x_windows_lock);
}

void cove_x_unregister_window(guint32 window) {
    g_mutex_lock(&cove_x_windows_lock);
    if (cove_x_windows) {
        guint count = GPOINTER_TO_UINT(g_hash_table_lookup(cove_x_windows, GUINT_TO_POINTER(window)));
        if (count <= 1) g_hash_table_remove(cove_x_windows, GUINT_TO_POINTER(window));
        else g_hash_table_insert(cove_x_windows, GUINT_TO_POINTER(window), GUINT_TO_POINTER(count - 1));
    }
    g_mutex_unlock(&cove_x_windows_lock);
}

gint cove_x_error_count(void) {
    return g_atomic_int_get(&cove_x_errors);
}

gboolean cove_set_window_handle(GstElement *sink, guintptr handle) {
    if (!GST_IS_VIDEO_OVERLAY(sink)) return FALSE;
    gst_video_overlay_set_window_handle(GST_VIDEO_OVERLAY(sink), handle);
    return TRUE;
}

void cove_overlay_expose(GstElement *sink) {
    if (GST_IS_VIDEO_OVERLAY(sink)) gst_video_overlay_expose(GST_VIDEO_OVERLAY(sink));
}

void *cove_xcb_connect(const char *display) {
    int screen = 0;
    xcb_connection_t *connection = xcb_connect(display, &screen);
    if (!connection) return NULL;
    if (xcb_connection_has_error(connection)) {
        xcb_disconnect(connection);
        return NULL;
    }
    return connection;
}

gboolean cove_xcb_window_size(void *connection, guint32 window, gint *width, gint *height) {
    xcb_generic_error_t *error = NULL;
    xcb_get_geometry_reply_t *reply = xcb_get_geometry_reply(connection, xcb_get_geometry(connection, window), &error);
    free(error);
    if (!reply) return FALSE;
    *width = reply->width;
    *height = reply->height;
    free(reply);
    return TRUE;
}

void cove_xcb_disconnect(void *connection) {
    if (connection) xcb_disconnect(connection);
}

GstSample *cove_appsink_pull(GstElement *appsink, guint64 timeout_ns) {
    return gst_app_sink_try_pull_sample(GST_APP_SINK(appsink), timeout_ns);
}

GstSample *cove_sink_last_sample(GstElement *sink) {
    GstSample *sample = NULL;
    g_object_get(sink, "last-sample", &sample, NULL);
    return sample;
}

struct CoveMappedFrame {
    GstVideoFrame frame;
    GstSample *sample;
};

static gint64 cove_sample_stream_time(GstSample *sample, GstBuffer *buffer) {
    GstClockTime pts = GST_BUFFER_PTS(buffer);
    GstSegment *segment = gst_sample_get_segment(sample);
    if (!GST_CLOCK_TIME_IS_VALID(pts)) return -1;
    if (!segment || segment->format != GST_FORMAT_TIME) return (gint64)pts;
    guint64 stream = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts);
    return GST_CLOCK_TIME_IS_VALID(stream) ? (gint64)stream : (gint64)pts;
}

CoveMappedFrame *cove_video_frame_map(GstSample *sample, gint *width, gint *height, gint *planes, gint64 *stream_time_ns, gint *fps_n, gint *fps_d) {
    GstCaps *caps = gst_sample_get_caps(sample);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstVideoInfo info;
    if (!caps || !buffer || !gst_video_info_from_caps(&info, caps)) return NULL;
    CoveMappedFrame *mapped = g_new0(CoveMappedFrame, 1);
    if (!gst_video_frame_map(&mapped->frame, &info, buffer, GST_MAP_READ)) {
        g_free(mapped);
        return NULL;
    }
    mapped->sample = gst_sample_ref(sample);
    *width = GST_VIDEO_FRAME_WIDTH(&mapped->frame);
    *height = GST_VIDEO_FRAME_HEIGHT(&mapped->frame);
    *planes = GST_VIDEO_FRAME_N_PLANES(&mapped->frame);
    *stream_time_ns = cove_sample_stream_time(sample, buffer);
    *fps_n = GST_VIDEO_INFO_FPS_N(&info);
    *fps_d = GST_VIDEO_INFO_FPS_D(&info);
    return mapped;
}

const guint8 *cove_video_frame_plane(CoveMappedFrame *mapped, gint index, gint *stride, gint *rows) {
    if (index < 0 || index >= (gint)GST_VIDEO_FRAME_N_PLANES(&mapped->frame)) return NULL;
    *stride = GST_VIDEO_FRAME_PLANE_STRIDE(&mapped->frame, index);
    // Rows of this plane: the component's subsampled height (I420's chroma planes are half height).
    guint component = 0;
    for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS(&mapped->frame); c++) {
        if (GST_VIDEO_FRAME_COMP_PLANE(&mapped->frame, c) == (guint)index) { component = c; break; }
    }
    *rows = GST_VIDEO_FRAME_COMP_HEIGHT(&mapped->frame, component);
    return GST_VIDEO_FRAME_PLANE_DATA(&mapped->frame, index);
}

void cove_video_frame_release(CoveMappedFrame *mapped) {
    if (!mapped) return;
    gst_video_frame_unmap(&mapped->frame);
    gst_sample_unref(mapped->sample);
    g_free(mapped);
}

gfloat *cove_audio_sample_copy(GstSample *sample, gint *rate, gint *channels, gint64 *stream_time_ns, gsize *count) {
    GstCaps *caps = gst_sample_get_caps(sample);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstAudioInfo info;
    if (!caps || !buffer || !gst_audio_info_from_caps(&info, caps)) return NULL;
    if (GST_AUDIO_INFO_FORMAT(&info) != GST_AUDIO_FORMAT_F32 || GST_AUDIO_INFO_LAYOUT(&info) != GST_AUDIO_LAYOUT_INTERLEAVED) return NULL;
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return NULL;
    gfloat *copy = g_memdup2(map.data, map.size);
    *count = map.size / sizeof(gfloat);
    gst_buffer_unmap(buffer, &map);
    *rate = GST_AUDIO_INFO_RATE(&info);
    *channels = GST_AUDIO_INFO_CHANNELS(&info);
    *stream_time_ns = cove_sample_stream_time(sample, buffer);
    return copy;
}

gboolean cove_color_balance_set(gpointer element, const char *label, gdouble fraction) {
    if (element == NULL || label == NULL || !GST_IS_COLOR_BALANCE(element)) return FALSE;
    GstColorBalance *balance = GST_COLOR_BALANCE(element);
    if (fraction < 0) fraction = 0;
    if (fraction > 1) fraction = 1;
    for (const GList *item = gst_color_balance_list_channels(balance); item != NULL; item = item->next) {
        GstColorBalanceChannel *channel = item->data;
        if (channel->label == NULL || g_ascii_strcasecmp(channel->label, label) != 0) continue;
        gdouble span = (gdouble)channel->max_value - (gdouble)channel->min_value;
        gint value = channel->min_value + (gint)(fraction * span + 0.5);
        gst_color_balance_set_value(balance, channel, value);
        return TRUE;
    }
    return FALSE;
}

