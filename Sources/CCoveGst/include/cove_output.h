// Outputs an app embeds Cove into: its own X11 window (the video overlay interface, the window's size
// read through XCB), decoded frames and samples pulled from an appsink. One call per wrapper.
#ifndef COVE_OUTPUT_H
#define COVE_OUTPUT_H

#include <gst/gst.h>

/// Tells a video sink that implements GstVideoOverlay to draw into `handle` (an X11 window ID).
gboolean cove_set_window_handle(GstElement *sink, guintptr handle);
/// Asks the sink to redraw its last frame (after the window was resized or uncovered).
void cove_overlay_expose(GstElement *sink);

/// Makes X protocol errors about the windows registered here non-fatal (counted instead): Xlib's default
/// handler exits, and an app may destroy the window the video is embedded in before playback has
/// stopped. Every other error goes to the handler that was installed before (the app's, or Xlib's).
/// Installed once per process.
void cove_install_x_error_handler(void);
void cove_x_register_window(guint32 window);
void cove_x_unregister_window(guint32 window);
/// X errors about registered windows swallowed so far.
gint cove_x_error_count(void);

/// An XCB connection to `display` (NULL: $DISPLAY); NULL when the display cannot be reached.
void *cove_xcb_connect(const char *display);
/// The window's size; FALSE when it does not exist (errors are returned, never fatal).
gboolean cove_xcb_window_size(void *connection, guint32 window, gint *width, gint *height);
void cove_xcb_disconnect(void *connection);

/// The next sample of an appsink, waiting at most `timeout_ns`; NULL on timeout, end of stream or flush.
GstSample *cove_appsink_pull(GstElement *appsink, guint64 timeout_ns);
/// The sink's last sample (`last-sample`: the frame shown now, also while paused after a seek); NULL
/// when none.
GstSample *cove_sink_last_sample(GstElement *sink);

/// A video sample mapped for reading, its buffer held until `cove_video_frame_release`.
typedef struct CoveMappedFrame CoveMappedFrame;
/// Maps `sample` (a reference is taken); NULL when its caps are not raw video. `stream_time_ns` is the
/// frame's time on the stream (segment applied), -1 when unknown; the frame rate is 0/1 when variable.
CoveMappedFrame *cove_video_frame_map(GstSample *sample, gint *width, gint *height, gint *planes, gint64 *stream_time_ns, gint *fps_n, gint *fps_d);
/// Plane `index`: its first byte, bytes per row and rows.
const guint8 *cove_video_frame_plane(CoveMappedFrame *frame, gint index, gint *stride, gint *rows);
void cove_video_frame_release(CoveMappedFrame *frame);

/// Raw float audio: rate, channels, stream time and a copy of the samples (free with g_free); NULL when
/// the sample is not F32 interleaved audio.
gfloat *cove_audio_sample_copy(GstSample *sample, gint *rate, gint *channels, gint64 *stream_time_ns, gsize *count);

/// Sets the colour-balance channel of `element` (a GstColorBalance: playbin3 is one) labelled `label`
/// ("CONTRAST", "SATURATION", …; case ignored) to `fraction` (0…1) of its range. FALSE when the element
/// has no colour balance or no such channel.
gboolean cove_color_balance_set(gpointer element, const char *label, gdouble fraction);

#endif
