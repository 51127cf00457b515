#include "cove_gst.h"
#include <gst/video/video.h>
#include <string.h>

gboolean cove_gst_init(char **error_message) {
    GError *error = NULL;
    if (!gst_init_check(NULL, NULL, &error)) {
        if (error_message) *error_message = g_strdup(error ? error->message : "gst_init_check failed");
        if (error) g_error_free(error);
        return FALSE;
    }
    return TRUE;
}

GstElement *cove_element_make(const char *factory, const char *name) {
    return gst_element_factory_make(factory, name);
}

GstElement *cove_bin_from_description(const char *description, char **error_message) {
    GError *error = NULL;
    GstElement *bin = gst_parse_bin_from_description(description, TRUE, &error);
    if (!bin) {
        if (error_message) *error_message = g_strdup(error ? error->message : "could not parse bin");
        if (error) g_error_free(error);
        return NULL;
    }
    if (error) g_error_free(error);
    return bin;
}

void cove_set_bool(gpointer o, const char *p, gboolean v) { g_object_set(o, p, v, NULL); }
void cove_set_int(gpointer o, const char *p, gint v) { g_object_set(o, p, v, NULL); }
void cove_set_uint(gpointer o, const char *p, guint v) { g_object_set(o, p, v, NULL); }
void cove_set_int64(gpointer o, const char *p, gint64 v) { g_object_set(o, p, v, NULL); }
void cove_set_uint64(gpointer o, const char *p, guint64 v) { g_object_set(o, p, v, NULL); }
void cove_set_double(gpointer o, const char *p, gdouble v) { g_object_set(o, p, v, NULL); }
void cove_set_string(gpointer o, const char *p, const char *v) { g_object_set(o, p, v, NULL); }
void cove_set_object(gpointer o, const char *p, gpointer v) { g_object_set(o, p, v, NULL); }
void cove_set_from_string(gpointer o, const char *p, const char *v) { gst_util_set_object_arg(G_OBJECT(o), p, v); }

guint cove_get_uint(gpointer o, const char *p) { guint v = 0; g_object_get(o, p, &v, NULL); return v; }
guint64 cove_get_uint64(gpointer o, const char *p) { guint64 v = 0; g_object_get(o, p, &v, NULL); return v; }
gdouble cove_get_double(gpointer o, const char *p) { gdouble v = 0; g_object_get(o, p, &v, NULL); return v; }
gboolean cove_get_bool(gpointer o, const char *p) { gboolean v = FALSE; g_object_get(o, p, &v, NULL); return v; }
gboolean cove_sink_frame_counts(gpointer sink, guint64 *rendered, guint64 *dropped) {
    if (!sink || !g_object_class_find_property(G_OBJECT_GET_CLASS(sink), "stats")) return FALSE;
    GstStructure *stats = NULL;
    g_object_get(sink, "stats", &stats, NULL);
    if (!stats) return FALSE;
    gboolean ok = gst_structure_get_uint64(stats, "rendered", rendered) && gst_structure_get_uint64(stats, "dropped", dropped);
    gst_structure_free(stats);
    return ok;
}
gboolean cove_has_property(gpointer o, const char *p) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(o), p) != NULL;
}

const char *cove_factory_name(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory ? gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)) : "";
}
const char *cove_object_name(gpointer object) { return object ? GST_OBJECT_NAME(object) : NULL; }
const char *cove_type_name(gpointer object) { return object ? G_OBJECT_TYPE_NAME(object) : ""; }

gulong cove_signal_connect(gpointer o, const char *s, GCallback cb, gpointer data) {
    return g_signal_connect(o, s, cb, data);
}
void cove_signal_disconnect(gpointer o, gulong handler) {
    if (handler && g_signal_handler_is_connected(o, handler)) g_signal_handler_disconnect(o, handler);
}

GstEvent *cove_make_seek(gdouble rate, gint64 position_ns, gboolean key_unit) {
    GstSeekFlags flags = GST_SEEK_FLAG_FLUSH | (key_unit ? (GST_SEEK_FLAG_KEY_UNIT | GST_SEEK_FLAG_SNAP_NEAREST) : GST_SEEK_FLAG_ACCURATE);
    return rate >= 0
        ? gst_event_new_seek(rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, position_ns, GST_SEEK_TYPE_NONE, GST_CLOCK_TIME_NONE)
        : gst_event_new_seek(rate, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, 0, GST_SEEK_TYPE_SET, position_ns);
}

guint32 cove_seek(GstElement *e, gdouble rate, gint64 position_ns, gboolean key_unit) {
    GstEvent *event = cove_make_seek(rate, position_ns, key_unit);
    guint32 seqnum = gst_event_get_seqnum(event);
    return gst_element_send_event(e, event) ? seqnum : 0;
}

gboolean cove_select_streams(GstElement *e, const char *const *ids, gint count) {
    GList *list = NULL;
    for (gint i = 0; i < count; i++) list = g_list_append(list, (gpointer)ids[i]);
    GstEvent *event = gst_event_new_select_streams(list);
    g_list_free(list);
    return gst_element_send_event(e, event);
}

void cove_post_application_values(GstElement *e, const char *name, gint64 a, gint64 b) {
    GstBus *bus = gst_element_get_bus(e);
    if (!bus) return;
    GstStructure *s = gst_structure_new(name, "a", G_TYPE_INT64, a, "b", G_TYPE_INT64, b, NULL);
    gst_bus_post(bus, gst_message_new_application(GST_OBJECT(e), s));
    gst_object_unref(bus);
}

gboolean cove_message_application_values(GstMessage *m, gint64 *a, gint64 *b) {
    const GstStructure *s = gst_message_get_structure(m);
    return s && gst_structure_get_int64(s, "a", a) && gst_structure_get_int64(s, "b", b);
}

guint64 cove_message_timestamp(GstMessage *m) { return GST_MESSAGE_TIMESTAMP(m); }
guint64 cove_monotonic_now(void) { return gst_util_get_timestamp(); }

gboolean cove_event_video_size(GstEvent *event, gint *w, gint *h) {
    if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return FALSE;
    GstCaps *caps = NULL;
    gst_event_parse_caps(event, &caps);
    if (!caps || gst_caps_get_size(caps) == 0) return FALSE;
    GstStructure *s = gst_caps_get_structure(caps, 0);
    if (!g_str_has_prefix(gst_structure_get_name(s), "video/")) return FALSE;
    return gst_structure_get_int(s, "width", w) && gst_structure_get_int(s, "height", h);
}

GstEventType cove_event_type(GstEvent *event) { return GST_EVENT_TYPE(event); }

const char *cove_message_structure_name(GstMessage *m) {
    const GstStructure *s = gst_message_get_structure(m);
    return s ? gst_structure_get_name(s) : "";
}
char *cove_message_structure_string(GstMessage *m) {
    const GstStructure *s = gst_message_get_structure(m);
    return s ? gst_structure_to_string(s) : NULL;
}
GstObject *cove_message_source(GstMessage *m) { return GST_MESSAGE_SRC(m); }

gint cove_message_buffering_percent(GstMessage *m) { gint p = 0; gst_message_parse_buffering(m, &p); return p; }

void cove_message_error(GstMessage *m, gboolean is_warning, char **domain, gint *code, char **text, char **debug) {
    GError *error = NULL;
    gchar *dbg = NULL;
    if (is_warning) gst_message_parse_warning(m, &error, &dbg); else gst_message_parse_error(m, &error, &dbg);
    *domain = g_strdup(error ? g_quark_to_string(error->domain) : "");
    *code = error ? error->code : 0;
    *text = g_strdup(error ? error->message : "");
    *debug = dbg ? dbg : g_strdup("");
    if (error) g_error_free(error);
}

gboolean cove_message_get_uint64(GstMessage *m, const char *f, guint64 *out) {
    const GstStructure *s = gst_message_get_structure(m);
    if (!s) return FALSE;
    if (gst_structure_get_uint64(s, f, out)) return TRUE;
    GstClockTime t;
    if (gst_structure_get_clock_time(s, f, &t)) { *out = t; return TRUE; }
    gint64 i;
    if (gst_structure_get_int64(s, f, &i)) { *out = (guint64)i; return TRUE; }
    guint u;
    if (gst_structure_get_uint(s, f, &u)) { *out = u; return TRUE; }
    return FALSE;
}
gboolean cove_message_get_uint(GstMessage *m, const char *f, guint *out) {
    const GstStructure *s = gst_message_get_structure(m);
    return s ? gst_structure_get_uint(s, f, out) : FALSE;
}
gboolean cove_message_get_int(GstMessage *m, const char *f, guint64 *out) {
    const GstStructure *s = gst_message_get_structure(m);
    gint v = 0;
    if (!s || !gst_structure_get_int(s, f, &v) || v < 0) return FALSE;
    *out = (guint64)v;
    return TRUE;
}
char *cove_message_get_string(GstMessage *m, const char *f) {
    const GstStructure *s = gst_message_get_structure(m);
    const char *v = s ? gst_structure_get_string(s, f) : NULL;
    return v ? g_strdup(v) : NULL;
}

GstStreamCollection *cove_message_stream_collection(GstMessage *m) {
    GstStreamCollection *c = NULL;
    gst_message_parse_stream_collection(m, &c);
    return c;
}
guint cove_message_streams_selected_count(GstMessage *m) { return gst_message_streams_selected_get_size(m); }
GstStream *cove_message_streams_selected_stream(GstMessage *m, guint i) { return gst_message_streams_selected_get_stream(m, i); }

static char *tag_string(GstStream *s, const char *tag) {
    GstTagList *tags = gst_stream_get_tags(s);
    if (!tags) return NULL;
    gchar *value = NULL;
    if (!gst_tag_list_get_string(tags, tag, &value)) value = NULL;
    gst_tag_list_unref(tags);
    return value;
}
char *cove_stream_language(GstStream *s) {
    char *v = tag_string(s, GST_TAG_LANGUAGE_CODE);
    return v ? v : tag_string(s, GST_TAG_LANGUAGE_NAME);
}
char *cove_stream_title(GstStream *s) { return tag_string(s, GST_TAG_TITLE); }
char *cove_stream_codec_tag(GstStream *s) {
    char *v = tag_string(s, GST_TAG_VIDEO_CODEC);
    if (!v) v = tag_string(s, GST_TAG_AUDIO_CODEC);
    if (!v) v = tag_string(s, GST_TAG_SUBTITLE_CODEC);
    return v;
}
guint cove_stream_bitrate(GstStream *s) {
    GstTagList *tags = gst_stream_get_tags(s);
    guint v = 0;
    if (tags) {
        if (!gst_tag_list_get_uint(tags, GST_TAG_BITRATE, &v)) gst_tag_list_get_uint(tags, GST_TAG_NOMINAL_BITRATE, &v);
        gst_tag_list_unref(tags);
    }
    return v;
}
char *cove_stream_caps_string(GstStream *s) {
    GstCaps *caps = gst_stream_get_caps(s);
    if (!caps) return NULL;
    char *text = gst_caps_to_string(caps);
    gst_caps_unref(caps);
    return text;
}

gboolean cove_pad_video_size(GstPad *pad, gint *w, gint *h) {
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (!caps) return FALSE;
    gboolean ok = FALSE;
    if (gst_caps_get_size(caps) > 0) {
        GstStructure *s = gst_caps_get_structure(caps, 0);
        ok = gst_structure_get_int(s, "width", w) && gst_structure_get_int(s, "height", h);
    }
    gst_caps_unref(caps);
    return ok;
}

GstBuffer *cove_snapshot_png(GstElement *playbin, gint *width, gint *height, char **error_message) {
    GstSample *sample = NULL;
    g_object_get(playbin, "sample", &sample, NULL);
    if (!sample) {
        if (error_message) *error_message = g_strdup("no video frame has been decoded yet");
        return NULL;
    }
    GstCaps *png = gst_caps_new_empty_simple("image/png");
    GError *error = NULL;
    GstSample *converted = gst_video_convert_sample(sample, png, 5 * GST_SECOND, &error);
    gst_caps_unref(png);
    gst_sample_unref(sample);
    if (!converted) {
        if (error_message) *error_message = g_strdup(error ? error->message : "frame conversion failed");
        if (error) g_error_free(error);
        return NULL;
    }
    if (error) g_error_free(error);
    GstCaps *caps = gst_sample_get_caps(converted);
    if (caps && gst_caps_get_size(caps) > 0) {
        GstStructure *s = gst_caps_get_structure(caps, 0);
        gst_structure_get_int(s, "width", width);
        gst_structure_get_int(s, "height", height);
    }
    GstBuffer *buffer = gst_sample_get_buffer(converted);
    if (buffer) gst_buffer_ref(buffer);
    gst_sample_unref(converted);
    if (!buffer && error_message) *error_message = g_strdup("converted frame has no data");
    return buffer;
}

guint8 *cove_buffer_copy_bytes(GstBuffer *buffer, gsize *size) {
    GstMapInfo map;
    if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) { *size = 0; return NULL; }
    guint8 *copy = g_memdup2(map.data, map.size);
    *size = map.size;
    gst_buffer_unmap(buffer, &map);
    return copy;
}

gint64 cove_pad_buffer_stream_end(GstPad *pad, GstBuffer *buffer) {
    GstClockTime time = GST_BUFFER_PTS_IS_VALID(buffer) ? GST_BUFFER_PTS(buffer) : GST_BUFFER_DTS(buffer);
    if (!GST_CLOCK_TIME_IS_VALID(time)) return -1;
    if (GST_BUFFER_DURATION_IS_VALID(buffer)) time += GST_BUFFER_DURATION(buffer);
    GstEvent *event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    if (!event) return -1;
    const GstSegment *segment = NULL;
    gst_event_parse_segment(event, &segment);
    gint64 result = -1;
    if (segment && segment->format == GST_FORMAT_TIME) {
        guint64 stream_time = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, time);
        if (GST_CLOCK_TIME_IS_VALID(stream_time)) result = (gint64)stream_time;
    }
    gst_event_unref(event);
    return result;
}

gboolean cove_pad_buffer_stream_times(GstPad *pad, GstBuffer *buffer, gint64 *start, gint64 *end) {
    GstClockTime time = GST_BUFFER_PTS_IS_VALID(buffer) ? GST_BUFFER_PTS(buffer) : GST_BUFFER_DTS(buffer);
    if (!GST_CLOCK_TIME_IS_VALID(time)) return FALSE;
    GstClockTime stop = GST_BUFFER_DURATION_IS_VALID(buffer) ? time + GST_BUFFER_DURATION(buffer) : time;
    GstEvent *event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    if (!event) return FALSE;
    const GstSegment *segment = NULL;
    gst_event_parse_segment(event, &segment);
    gboolean ok = FALSE;
    if (segment && segment->format == GST_FORMAT_TIME) {
        guint64 a = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, time);
        guint64 b = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, stop);
        if (GST_CLOCK_TIME_IS_VALID(a)) {
            *start = (gint64)a;
            *end = GST_CLOCK_TIME_IS_VALID(b) ? (gint64)b : (gint64)a;
            ok = TRUE;
        }
    }
    gst_event_unref(event);
    return ok;
}

static void cove_set_error(char **error_message, const char *text) {
    if (error_message && !*error_message) *error_message = g_strdup(text);
}

guint8 *cove_image_decode_rgba(const guint8 *data, gsize size, const char *decoder, const char *caps, guint64 timeout_ns,
                               gint *width, gint *height, gsize *out_size, char **error_message) {
    *width = 0;
    *height = 0;
    *out_size = 0;
    GstElement *pipeline = gst_pipeline_new(NULL);
    GstElement *src = gst_element_factory_make("appsrc", NULL);
    GstElement *dec = gst_element_factory_make(decoder, NULL);
    GstElement *convert = gst_element_factory_make("videoconvert", NULL);
    GstElement *filter = gst_element_factory_make("capsfilter", NULL);
    GstElement *sink = gst_element_factory_make("appsink", NULL);
    if (!pipeline || !src || !dec || !convert || !filter || !sink) {
        cove_set_error(error_message, "a GStreamer element for image decoding is missing (appsrc, appsink, pngdec, jpegdec or videoconvert)");
        GstElement *all[] = {src, dec, convert, filter, sink, pipeline};
        for (gsize i = 0; i < G_N_ELEMENTS(all); i++) if (all[i]) gst_object_unref(all[i]);
        return NULL;
    }
    GstCaps *in_caps = gst_caps_from_string(caps);
    GstCaps *out_caps = gst_caps_from_string("video/x-raw,format=RGBA");
    g_object_set(src, "caps", in_caps, NULL);
    g_object_set(filter, "caps", out_caps, NULL);
    g_object_set(sink, "sync", FALSE, NULL);
    gst_caps_unref(in_caps);
    gst_caps_unref(out_caps);
    gst_bin_add_many(GST_BIN(pipeline), src, dec, convert, filter, sink, NULL);
    guint8 *result = NULL;
    if (!gst_element_link_many(src, dec, convert, filter, sink, NULL)) {
        cove_set_error(error_message, "the image decoding pipeline could not be linked");
        gst_object_unref(pipeline);
        return NULL;
    }
    if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
        cove_set_error(error_message, "the image decoding pipeline could not start");
        gst_element_set_state(pipeline, GST_STATE_NULL);
        gst_object_unref(pipeline);
        return NULL;
    }
    GstFlowReturn flow = GST_FLOW_OK;
    GstBuffer *buffer = gst_buffer_new_memdup(data, size);
    g_signal_emit_by_name(src, "push-buffer", buffer, &flow);
    gst_buffer_unref(buffer);
    g_signal_emit_by_name(src, "end-of-stream", &flow);

    /* Wait for the picture itself rather than the pipeline's EOS message: poll the sink in short
       steps, and the bus for an error, until the deadline. */
    GstBus *bus = gst_element_get_bus(pipeline);
    GstMessage *message = NULL;
    GstSample *sample = NULL;
    gint64 deadline = g_get_monotonic_time() + (gint64)(timeout_ns / 1000);
    for (;;) {
        g_signal_emit_by_name(sink, "try-pull-sample", (guint64)(20 * GST_MSECOND), &sample);
        if (sample) break;
        message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
        if (message) {
            GError *error = NULL;
            gst_message_parse_error(message, &error, NULL);
            cove_set_error(error_message, error ? error->message : "the image decoder failed");
            if (error) g_error_free(error);
            break;
        }
        gboolean eos = FALSE;
        g_object_get(sink, "eos", &eos, NULL);
        if (eos) {
            cove_set_error(error_message, "the image decoder produced no picture (truncated or corrupt image)");
            break;
        }
        if (g_get_monotonic_time() > deadline) {
            cove_set_error(error_message, "the image decoder did not finish in time");
            break;
        }
    }
    if (sample) {
        GstVideoInfo info;
        if (!gst_video_info_from_caps(&info, gst_sample_get_caps(sample)) || GST_VIDEO_INFO_FORMAT(&info) != GST_VIDEO_FORMAT_RGBA) {
            cove_set_error(error_message, "the image decoder produced an unexpected format");
        } else {
            GstBuffer *pixels = gst_sample_get_buffer(sample);
            GstMapInfo map;
            gint w = GST_VIDEO_INFO_WIDTH(&info), h = GST_VIDEO_INFO_HEIGHT(&info);
            gsize stride = (gsize)GST_VIDEO_INFO_PLANE_STRIDE(&info, 0);
            gsize offset = GST_VIDEO_INFO_PLANE_OFFSET(&info, 0);
            gsize row = (gsize)w * 4;
            if (!pixels || w <= 0 || h <= 0 || !gst_buffer_map(pixels, &map, GST_MAP_READ)) {
                cove_set_error(error_message, "the decoded picture could not be read");
            } else {
                if (stride < row || map.size < offset + stride * (gsize)(h - 1) + row) {
                    cove_set_error(error_message, "the decoded picture is smaller than its caps say");
                } else {
                    result = g_malloc(row * (gsize)h);
                    for (gint y = 0; y < h; y++) memcpy(result + row * (gsize)y, map.data + offset + stride * (gsize)y, row);
                    *width = w;
                    *height = h;
                    *out_size = row * (gsize)h;
                }
                gst_buffer_unmap(pixels, &map);
            }
        }
        gst_sample_unref(sample);
    }
    if (message) gst_message_unref(message);
    gst_object_unref(bus);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
    return result;
}

guint8 *cove_image_encode_png(const guint8 *rgba, gint width, gint height, guint64 timeout_ns, gsize *out_size, char **error_message) {
    *out_size = 0;
    GstVideoInfo info;
    gst_video_info_init(&info);
    if (width <= 0 || height <= 0 || !gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, (guint)width, (guint)height)) {
        cove_set_error(error_message, "the picture to encode has no valid size");
        return NULL;
    }
    gsize row = (gsize)width * 4;
    GstCaps *caps = gst_video_info_to_caps(&info);
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, GST_VIDEO_INFO_SIZE(&info), NULL);
    GstMapInfo map;
    if (!buffer || !gst_buffer_map(buffer, &map, GST_MAP_WRITE)) {
        cove_set_error(error_message, "no memory for the picture to encode");
        if (buffer) gst_buffer_unref(buffer);
        gst_caps_unref(caps);
        return NULL;
    }
    gsize stride = (gsize)GST_VIDEO_INFO_PLANE_STRIDE(&info, 0);
    for (gint y = 0; y < height; y++) memcpy(map.data + stride * (gsize)y, rgba + row * (gsize)y, row);
    gst_buffer_unmap(buffer, &map);
    GstSample *sample = gst_sample_new(buffer, caps, NULL, NULL);
    gst_buffer_unref(buffer);
    gst_caps_unref(caps);
    GstCaps *png = gst_caps_new_empty_simple("image/png");
    GError *error = NULL;
    GstSample *converted = gst_video_convert_sample(sample, png, timeout_ns, &error);
    gst_caps_unref(png);
    gst_sample_unref(sample);
    guint8 *result = NULL;
    if (!converted) {
        cove_set_error(error_message, error ? error->message : "PNG encoding failed");
    } else {
        GstBuffer *encoded = gst_sample_get_buffer(converted);
        if (encoded) result = cove_buffer_copy_bytes(encoded, out_size);
        if (!result) cove_set_error(error_message, "the PNG encoder produced no data");
        gst_sample_unref(converted);
    }
    if (error) g_error_free(error);
    return result;
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void cove_return_free_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

int cove_set_malloc_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes) == 1;
#else
    (void)bytes;
    return 0;
#endif
}

int cove_limit_malloc_arenas(int count) {
#if defined(__GLIBC__)
    return mallopt(M_ARENA_MAX, count) == 1;
#else
    (void)count;
    return 0;
#endif
}
