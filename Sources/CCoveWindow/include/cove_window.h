// The player view's X11 window over XCB: a top-level window of its own, or a child filling a window the
// app owns (its input then comes to the child, as mpv's --wid does). Events come back as one flat value;
// X errors come back as values and never end the process (Xlib's default handler would).
#ifndef COVE_WINDOW_H
#define COVE_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

typedef struct CoveWindow CoveWindow;

typedef enum {
    COVE_WINDOW_EVENT_NONE = 0,
    /// Part of the window must be drawn again.
    COVE_WINDOW_EVENT_EXPOSE,
    /// The window's size changed (width, height).
    COVE_WINDOW_EVENT_RESIZE,
    COVE_WINDOW_EVENT_POINTER_MOTION,
    COVE_WINDOW_EVENT_BUTTON_PRESS,
    COVE_WINDOW_EVENT_BUTTON_RELEASE,
    COVE_WINDOW_EVENT_KEY_PRESS,
    /// The pointer left the window.
    COVE_WINDOW_EVENT_POINTER_LEFT,
    /// The window manager asked the window to close (WM_DELETE_WINDOW).
    COVE_WINDOW_EVENT_CLOSE_REQUESTED,
    /// `cove_window_wake` was called.
    COVE_WINDOW_EVENT_WAKE,
    /// The connection to the display is gone; no more events.
    COVE_WINDOW_EVENT_DISCONNECTED,
} CoveWindowEventType;

typedef struct {
    CoveWindowEventType type;
    int32_t x, y;
    int32_t width, height;
    /// The key's keysym (X11 keysymdef.h values; shift applied), for key presses.
    uint32_t keysym;
    /// 1 left, 2 middle, 3 right, 4/5 wheel up/down.
    uint32_t button;
    /// Modifier state (X11 masks: 1 shift, 4 control, 8 mod1/alt).
    uint32_t modifiers;
} CoveWindowEvent;

/// Opens a window on `display` (NULL: $DISPLAY): a top-level window titled `title` when `parent` is 0,
/// else a child covering the window `parent` and following its size. NULL with a message in `error`
/// (free it with free()) when the display or the parent cannot be reached.
CoveWindow *cove_window_open(const char *display, uint32_t parent, int32_t width, int32_t height, const char *title, char **error);
uint32_t cove_window_id(CoveWindow *window);
/// The window's current size (FALSE when it is gone).
bool cove_window_size(CoveWindow *window, int32_t *width, int32_t *height);
/// The XCB connection (for drawing into the window).
void *cove_window_connection(CoveWindow *window);

/// Blocks until the next event the view cares about.
void cove_window_next_event(CoveWindow *window, CoveWindowEvent *event);
/// Makes a blocked `cove_window_next_event` return COVE_WINDOW_EVENT_WAKE.
void cove_window_wake(CoveWindow *window);

void cove_window_set_title(CoveWindow *window, const char *title);
/// Full screen as EWMH says (_NET_WM_STATE_FULLSCREEN through the window manager); with no window manager
/// running, the window sets the state itself and covers the screen. Top-level windows only.
void cove_window_set_fullscreen(CoveWindow *window, bool fullscreen);
/// Whether _NET_WM_STATE on the window holds _NET_WM_STATE_FULLSCREEN.
bool cove_window_is_fullscreen(CoveWindow *window);
/// Gives the window the keyboard focus.
void cove_window_focus(CoveWindow *window);
/// Destroys the window and closes the connection. Call once no thread is in `cove_window_next_event`.
void cove_window_close(CoveWindow *window);

#endif
