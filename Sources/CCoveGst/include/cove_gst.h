// Typed wrappers for the GObject/GStreamer calls Swift cannot make directly: variadic functions,
// function-like macros and GObject casts. Each wrapper is one call; all logic stays in Swift.
#ifndef COVE_GST_H
#define COVE_GST_H

#include <gst/gst.h>

/// gst_init once per process; returns FALSE (with a message) if GStreamer cannot initialise.
gboolean cove_gst_init(char **error_message);

GstElement *cove_element_make(const char *factory, const char *name);
/// A bin parsed from a launch description with ghost pads; NULL on error.
GstElement *cove_bin_from_description(const char *description, char **error_message);

void cove_set_bool(gpointer object, const char *property, gboolean value);
void cove_set_int(gpointer object, const char *property, gint value);
void cove_set_uint(gpointer object, const char *property, guint value);
void cove_set_int64(gpointer object, const char *property, gint64 value);
void cove_set_uint64(gpointer object, const char *property, guint64 value);
void cove_set_double(gpointer object, const char *property, gdouble value);
void cove_set_string(gpointer object, const char *property, const char *value);
void cove_set_object(gpointer object, const char *property, gpointer value);
/// Sets an enum or flags property from its string form (e.g. "video+audio").
void cove_set_from_string(gpointer object, const char *property, const char *value);

guint cove_get_uint(gpointer object, const char *property);
guint64 cove_get_uint64(gpointer object, const char *property);
gdouble cove_get_double(gpointer object, const char *property);
gboolean cove_get_bool(gpointer object, const char *property);
gboolean cove_has_property(gpointer object, const char *property);
/// A base sink's frame counts (its "stats": rendered and dropped); FALSE when it keeps none.
gboolean cove_sink_frame_counts(gpointer sink, guint64 *rendered, guint64 *dropped);

/// The element's factory name ("hlsdemux2"), or "" when it has none.
const char *cove_factory_name(GstElement *element);
/// The object's name (GST_OBJECT_NAME); may be NULL.
const char *cove_object_name(gpointer object);
const char *cove_type_name(gpointer object);

gulong cove_signal_connect(gpointer object, const char *signal, GCallback callback, gpointer data);
void cove_signal_disconnect(gpointer object, gulong handler);

/// Flushing seek; ACCURATE unless key_unit, in which case KEY_UNIT|SNAP_NEAREST. Returns the seek
/// event's seqnum (which the resulting ASYNC_DONE and EOS messages carry), or 0 when refused.
guint32 cove_seek(GstElement *element, gdouble rate, gint64 position_ns, gboolean key_unit);
/// The same seek as an event, not yet sent: read its seqnum first, then gst_element_send_event it.
GstEvent *cove_make_seek(gdouble rate, gint64 position_ns, gboolean key_unit);
/// Sends GST_EVENT_SELECT_STREAMS with the given stream ids.
gboolean cove_select_streams(GstElement *element, const char *const *stream_ids, gint count);

/// Posts an application message named `name` carrying two integers (fields "a" and "b").
void cove_post_application_values(GstElement *element, const char *name, gint64 a, gint64 b);
/// Reads the integer fields "a" and "b" of an application message posted above.
gboolean cove_message_application_values(GstMessage *message, gint64 *a, gint64 *b);
/// The monotonic creation time of a message (GST_MESSAGE_TIMESTAMP) and the current monotonic time.
guint64 cove_message_timestamp(GstMessage *message);
guint64 cove_monotonic_now(void);
/// Width/height from a CAPS event; FALSE for other events or non-video caps.
gboolean cove_event_video_size(GstEvent *event, gint *width, gint *height);
/// GST_EVENT_TYPE of an event.
GstEventType cove_event_type(GstEvent *event);
/// The structure name of a message, or "" when it has none.
const char *cove_message_structure_name(GstMessage *message);
/// The message's structure as text (for logs), caller frees with g_free; NULL when none.
char *cove_message_structure_string(GstMessage *message);
GstObject *cove_message_source(GstMessage *message);

/// Reads "percent" of a BUFFERING message.
gint cove_message_buffering_percent(GstMessage *message);
/// Reads old/new state of a STATE_CHANGED message.
/// Reads an ERROR or WARNING message: domain name, code, message and debug text (free all with g_free).
void cove_message_error(GstMessage *message, gboolean is_warning, char **domain, gint *code, char **text, char **debug);
/// Field readers for ELEMENT messages such as adaptive-streaming-statistics.
gboolean cove_message_get_uint64(GstMessage *message, const char *field, guint64 *out);
gboolean cove_message_get_uint(GstMessage *message, const char *field, guint *out);
/// Reads a signed int field into a guint64 (negative values fail).
gboolean cove_message_get_int(GstMessage *message, const char *field, guint64 *out);
char *cove_message_get_string(GstMessage *message, const char *field);

/// Stream-collection helpers. Returned strings are copies (g_free).
GstStreamCollection *cove_message_stream_collection(GstMessage *message);
guint cove_message_streams_selected_count(GstMessage *message);
GstStream *cove_message_streams_selected_stream(GstMessage *message, guint index);
char *cove_stream_language(GstStream *stream);
char *cove_stream_title(GstStream *stream);
char *cove_stream_caps_string(GstStream *stream);
char *cove_stream_codec_tag(GstStream *stream);
guint cove_stream_bitrate(GstStream *stream);

/// Width/height of a pad's negotiated video caps; FALSE when not video or not negotiated.
gboolean cove_pad_video_size(GstPad *pad, gint *width, gint *height);

/// Converts the playbin's last video sample to PNG. Returns a buffer the caller unrefs, or NULL with
/// an error message (g_free).
GstBuffer *cove_snapshot_png(GstElement *playbin, gint *width, gint *height, char **error_message);

/// Data pointer/size of a mapped buffer copy (caller g_free's the returned data).
guint8 *cove_buffer_copy_bytes(GstBuffer *buffer, gsize *size);

/// Stream time (ns) of the end of `buffer` as it leaves `pad` (PTS, else DTS, plus duration, through the
/// pad's sticky segment); -1 when the buffer or the pad has no usable time.
gint64 cove_pad_buffer_stream_end(GstPad *pad, GstBuffer *buffer);

/// Stream times (ns) of the start and end of `buffer` at `pad`; FALSE when it has no timestamp or the
/// pad no time segment. A buffer without a duration ends where it starts.
gboolean cove_pad_buffer_stream_times(GstPad *pad, GstBuffer *buffer, gint64 *start, gint64 *end);

/// Decodes one whole still image to packed RGBA rows (stride width * 4) with `appsrc ! <decoder> !
/// videoconvert ! appsink`. `decoder` is "pngdec" or "jpegdec" and `caps` its input caps: the caller
/// has sniffed the format, so no typefinding ever runs on untrusted bytes. Returns the pixels (g_free)
/// or NULL with an error message (g_free); never waits longer than `timeout_ns`.
guint8 *cove_image_decode_rgba(const guint8 *data, gsize size, const char *decoder, const char *caps, guint64 timeout_ns,
                               gint *width, gint *height, gsize *out_size, char **error_message);

/// Encodes packed RGBA rows (stride width * 4) as PNG. Returns the bytes (g_free) or NULL with an
/// error message (g_free).
guint8 *cove_image_encode_png(const guint8 *rgba, gint width, gint height, guint64 timeout_ns, gsize *out_size, char **error_message);

#include "cove_appsrc.h"

// Returns the free pages of every malloc arena to the system (glibc's malloc_trim; a no-op elsewhere).
void cove_return_free_memory(void);

// Caps how many malloc arenas glibc may create (mallopt M_ARENA_MAX). Returns 1 when applied, 0 when the C
// library has no such setting or refused it.
/// mallopt(M_MMAP_THRESHOLD): blocks of at least `bytes` are mapped on their own (and unmapped when freed);
/// setting it also stops glibc raising the threshold by itself. 1 on success, 0 elsewhere than glibc.
int cove_set_malloc_mmap_threshold(int bytes);
int cove_limit_malloc_arenas(int count);

#endif
