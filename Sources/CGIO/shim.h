// GIO (GDBus): the session bus for MPRIS. Already installed under GStreamer.
#include <gio/gio.h>
