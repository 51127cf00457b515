// appsrc glue for Cove's own streaming: Swift downloads segments and pushes them here; GStreamer only
// demuxes, decodes and renders. Every buffer carries the seek generation it was fetched for (in its
// OFFSET field); a probe on the source pad drops buffers of an older generation, so nothing fetched
// before a seek can reach the demuxer after it, whatever the timing of the push.
#include "cove_appsrc.h"
#include <gst/app/gstappsrc.h>

// Reference-counted: the caller, appsrc's callbacks and the pad probe each hold one, released by
// cove_appsrc_detach and by GStreamer's destroy notifies, so a callback GStreamer is running while the
// caller detaches still finds the struct (it is freed by whoever lets go last).
struct CoveAppSource {
    gint refs;
    GstElement *appsrc;
    gint generation;
    /// BYTES format (a media file read by offset): the generation rides in OFFSET_END, OFFSET is the byte offset.
    gboolean bytes;
    CoveAppSourceSeek seek;
    gpointer context;
    gulong probe;
};

static CoveAppSource *cove_appsrc_ref(CoveAppSource *source) {
    g_atomic_int_inc(&source->refs);
    return source;
}

static void cove_appsrc_unref(gpointer data) {
    CoveAppSource *source = data;
    if (g_atomic_int_dec_and_test(&source->refs)) {
        gst_object_unref(source->appsrc);
        g_free(source);
    }
}

static gboolean cove_appsrc_seek_data(GstAppSrc *src, guint64 offset, gpointer data) {
    CoveAppSource *source = data;
    (void)src;
    CoveAppSourceSeek seek = g_atomic_pointer_get(&source->seek);
    gint generation = seek ? seek(source->context, offset) : g_atomic_int_get(&source->generation);
    g_atomic_int_set(&source->generation, generation);
    return TRUE;
}

/// need-data: the source has started and wants data (without a repositioning, if GstBaseSrc made none):
/// reported as position G_MAXUINT64, which changes nothing but lets waiting chunks through.
static void cove_appsrc_need_data(GstAppSrc *src, guint length, gpointer data) {
    CoveAppSource *source = data;
    (void)src;
    (void)length;
    CoveAppSourceSeek seek = g_atomic_pointer_get(&source->seek);
    if (seek) seek(source->context, G_MAXUINT64);
}

static GstPadProbeReturn cove_appsrc_generation_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    CoveAppSource *source = data;
    (void)pad;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (!buffer) return GST_PAD_PROBE_OK;
    guint64 generation = source->bytes ? GST_BUFFER_OFFSET_END(buffer) : GST_BUFFER_OFFSET(buffer);
    if (generation != (guint64)g_atomic_int_get(&source->generation)) return GST_PAD_PROBE_DROP;
    // A byte buffer leaves with the conventional end offset (this probe holds the only reference).
    if (source->bytes && gst_buffer_is_writable(buffer)) GST_BUFFER_OFFSET_END(buffer) = GST_BUFFER_OFFSET(buffer) + gst_buffer_get_size(buffer);
    return GST_PAD_PROBE_OK;
}

static CoveAppSource *cove_appsrc_attach_as(GstElement *appsrc, gint generation, gboolean bytes, CoveAppSourceSeek seek, gpointer context) {
    CoveAppSource *source = g_new0(CoveAppSource, 1);
    source->refs = 1;
    source->appsrc = gst_object_ref(appsrc);
    source->generation = generation;
    source->bytes = bytes;
    source->seek = seek;
    source->context = context;
    g_object_set(appsrc, "format", bytes ? GST_FORMAT_BYTES : GST_FORMAT_TIME, "stream-type", GST_APP_STREAM_TYPE_SEEKABLE, "max-bytes",
                 (guint64)512 * 1024 * 1024, "block", FALSE, "emit-signals", FALSE, NULL);
    GstAppSrcCallbacks callbacks = {0};
    callbacks.seek_data = cove_appsrc_seek_data;
    callbacks.need_data = cove_appsrc_need_data;
    gst_app_src_set_callbacks(GST_APP_SRC(appsrc), &callbacks, cove_appsrc_ref(source), cove_appsrc_unref);
    GstPad *pad = gst_element_get_static_pad(appsrc, "src");
    if (pad) {
        source->probe = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, cove_appsrc_generation_probe, cove_appsrc_ref(source), cove_appsrc_unref);
        gst_object_unref(pad);
    }
    return source;
}

CoveAppSource *cove_appsrc_attach(GstElement *appsrc, gint generation, CoveAppSourceSeek seek, gpointer context) {
    return cove_appsrc_attach_as(appsrc, generation, FALSE, seek, context);
}

CoveAppSource *cove_appsrc_attach_bytes(GstElement *appsrc, gint generation, gint64 size, CoveAppSourceSeek seek, gpointer context) {
    CoveAppSource *source = cove_appsrc_attach_as(appsrc, generation, TRUE, seek, context);
    gst_app_src_set_size(GST_APP_SRC(appsrc), size);
    return source;
}

GstFlowReturn cove_appsrc_push_bytes(CoveAppSource *source, const guint8 *data, gsize size, guint64 offset, gint generation) {
    GstBuffer *buffer = gst_buffer_new_memdup(data, size);
    GST_BUFFER_OFFSET(buffer) = offset;
    GST_BUFFER_OFFSET_END(buffer) = (guint64)generation;
    return gst_app_src_push_buffer(GST_APP_SRC(source->appsrc), buffer);
}

void cove_appsrc_set_size(CoveAppSource *source, gint64 size) {
    gst_app_src_set_size(GST_APP_SRC(source->appsrc), size);
}

void cove_appsrc_set_caps_string(CoveAppSource *source, const char *caps) {
    GstCaps *parsed = gst_caps_from_string(caps);
    if (!parsed) return;
    gst_app_src_set_caps(GST_APP_SRC(source->appsrc), parsed);
    gst_caps_unref(parsed);
}

guint64 cove_appsrc_queued_bytes(CoveAppSource *source) {
    return gst_app_src_get_current_level_bytes(GST_APP_SRC(source->appsrc));
}

void cove_appsrc_detach(CoveAppSource *source) {
    if (!source) return;
    // No more calls into the owner (which may be going away); a callback already running finishes first.
    g_atomic_pointer_set(&source->seek, NULL);
    GstAppSrcCallbacks callbacks = {0};
    gst_app_src_set_callbacks(GST_APP_SRC(source->appsrc), &callbacks, NULL, NULL);
    GstPad *pad = gst_element_get_static_pad(source->appsrc, "src");
    if (pad) {
        if (source->probe) gst_pad_remove_probe(pad, source->probe);
        gst_object_unref(pad);
    }
    cove_appsrc_unref(source);
}

gboolean cove_appsrc_start_at(CoveAppSource *source, gint64 position_ns) {
    GstEvent *seek = gst_event_new_seek(1.0, GST_FORMAT_TIME, GST_SEEK_FLAG_ACCURATE, GST_SEEK_TYPE_SET, position_ns, GST_SEEK_TYPE_NONE, -1);
    return gst_element_send_event(source->appsrc, seek);
}

void cove_appsrc_set_duration(CoveAppSource *source, gint64 duration_ns) {
    gst_app_src_set_duration(GST_APP_SRC(source->appsrc), duration_ns >= 0 ? (GstClockTime)duration_ns : GST_CLOCK_TIME_NONE);
}

GstFlowReturn cove_appsrc_push(CoveAppSource *source, const guint8 *data, gsize size, gint64 pts_ns, gboolean discont, gint generation) {
    GstBuffer *buffer = gst_buffer_new_memdup(data, size);
    GST_BUFFER_PTS(buffer) = pts_ns >= 0 ? (GstClockTime)pts_ns : GST_CLOCK_TIME_NONE;
    GST_BUFFER_OFFSET(buffer) = (guint64)generation;
    if (discont) GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_DISCONT);
    return gst_app_src_push_buffer(GST_APP_SRC(source->appsrc), buffer);
}

GstElement *cove_appsrc_element(CoveAppSource *source) { return source->appsrc; }

char *cove_element_uri(GstElement *element) {
    if (!GST_IS_URI_HANDLER(element)) return NULL;
    return gst_uri_handler_get_uri(GST_URI_HANDLER(element));
}

GstFlowReturn cove_appsrc_end_of_stream(CoveAppSource *source) {
    return gst_app_src_end_of_stream(GST_APP_SRC(source->appsrc));
}
