// appsrc glue for Cove's own streaming (see cove_appsrc.c).
#ifndef COVE_APPSRC_H
#define COVE_APPSRC_H

#include <gst/gst.h>

typedef struct CoveAppSource CoveAppSource;

/// Called on a GStreamer thread when the source is (re)positioned — at start and on every flushing seek —
/// with the target in nanoseconds; returns the generation buffers must carry from now on.
typedef gint (*CoveAppSourceSeek)(gpointer context, guint64 position_ns);

/// Configures `appsrc` for pushed segments (TIME format, seekable, non-blocking) and takes a reference.
CoveAppSource *cove_appsrc_attach(GstElement *appsrc, gint generation, CoveAppSourceSeek seek, gpointer context);
/// Configures `appsrc` for a media file read by offset (BYTES format, seekable: every repositioning is a
/// byte offset; `size` -1 when unknown) and takes a reference.
CoveAppSource *cove_appsrc_attach_bytes(GstElement *appsrc, gint generation, gint64 size, CoveAppSourceSeek seek, gpointer context);
/// Copies `data` (the file's bytes from `offset`) into a buffer and pushes it.
GstFlowReturn cove_appsrc_push_bytes(CoveAppSource *source, const guint8 *data, gsize size, guint64 offset, gint generation);
/// The file's length in bytes (-1: unknown), whenever it becomes known.
void cove_appsrc_set_size(CoveAppSource *source, gint64 size);
/// Announces what the bytes are (`caps`, a caps string such as "video/quicktime"), so the typefinder
/// downstream takes the type from the caps event instead of probing the data.
void cove_appsrc_set_caps_string(CoveAppSource *source, const char *caps);
/// Bytes queued in the appsrc that downstream has not taken yet.
guint64 cove_appsrc_queued_bytes(CoveAppSource *source);
/// Removes the callbacks and the probe and drops the reference.
void cove_appsrc_detach(CoveAppSource *source);
/// Before the source starts: its first segment begins at `position_ns` (a pending, non-flushing seek).
gboolean cove_appsrc_start_at(CoveAppSource *source, gint64 position_ns);
void cove_appsrc_set_duration(CoveAppSource *source, gint64 duration_ns);
/// Copies `data` into a buffer stamped with `pts_ns` (-1: none) and pushes it.
GstFlowReturn cove_appsrc_push(CoveAppSource *source, const guint8 *data, gsize size, gint64 pts_ns, gboolean discont, gint generation);
GstFlowReturn cove_appsrc_end_of_stream(CoveAppSource *source);
/// The appsrc element (borrowed).
GstElement *cove_appsrc_element(CoveAppSource *source);
/// The URI a source element was made for (`appsrc://audio`); caller frees with g_free; NULL when none.
char *cove_element_uri(GstElement *element);

#endif
