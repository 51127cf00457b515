// A picture over the video (a player view's controls): blended into each frame on its way into the video
// sink, and presented into the X11 window directly while no frames flow (paused, before the first frame,
// audio only). The pixels come from Swift (Cove's `VideoOverlay`); everything per frame happens here, on
// the streaming thread, without calling back into Swift.
#ifndef COVE_UI_OVERLAY_H
#define COVE_UI_OVERLAY_H

#include <gst/gst.h>

typedef struct CoveUIOverlay CoveUIOverlay;

/// Called on the streaming thread when the frames reaching the sink change size.
typedef void (*CoveUIFrameSizeCallback)(gint width, gint height, gpointer context);

CoveUIOverlay *cove_ui_overlay_new(CoveUIFrameSizeCallback on_frame_size, gpointer context);
/// Frees the overlay; detach it first (the probe must be gone).
void cove_ui_overlay_free(CoveUIOverlay *overlay);

/// Sets the layer drawn over every frame: `height` rows of `stride` bytes of premultiplied BGRA at
/// (`x`, `y`) on a canvas of `canvas_width`×`canvas_height` (scaled to the frames when they differ);
/// NULL `pixels` clears it. The pixels are copied.
void cove_ui_overlay_set_layer(CoveUIOverlay *overlay, const guint8 *pixels, gint stride, gint x, gint y, gint width, gint height,
                               gint canvas_width, gint canvas_height);
/// Sets the backdrop (drawn only while no frame is shown), like the layer.
void cove_ui_overlay_set_backdrop(CoveUIOverlay *overlay, const guint8 *pixels, gint stride, gint x, gint y, gint width, gint height,
                                  gint canvas_width, gint canvas_height);

/// Blends into the buffers crossing `pad` (the video sink's sink pad) from now on; returns the probe id.
gulong cove_ui_overlay_attach(CoveUIOverlay *overlay, GstPad *pad);
void cove_ui_overlay_detach(CoveUIOverlay *overlay, GstPad *pad, gulong probe);

/// Monotonic microseconds of the last frame blended (0: none yet).
gint64 cove_ui_overlay_last_frame_time(CoveUIOverlay *overlay);
/// Frames that crossed the pad so far.
guint64 cove_ui_overlay_frame_count(CoveUIOverlay *overlay);

/// Presents the picture into X11 `window` (`window_width`×`window_height`) over XCB `connection`, as the
/// sink would show it: the sink's last frame (`sink`'s last sample, with the region under the previous
/// picture restored first) with the current layer blended in, centred as ximagesink centres it; or,
/// when no frame was shown yet, the backdrop and the layer on black. `full` puts the whole picture
/// (after an expose); otherwise only the part the old and new layers cover. FALSE when nothing could be
/// presented (no window, a frame format that cannot be recomposed).
gboolean cove_ui_overlay_present(CoveUIOverlay *overlay, void *connection, guint32 window, gint window_width, gint window_height,
                                 GstElement *sink, gboolean full);

/// Frees what presentations made on the connection (its graphics context). Call before the connection
/// closes; later presentations make a new one.
void cove_ui_overlay_release_window(CoveUIOverlay *overlay);

#endif
