// The MPRIS object's insides, shared by its two halves: `cove_mpris_state.c` (the introspection data,
// the state as D-Bus values, PropertiesChanged) and `cove_mpris.c` (bus callbacks, the thread, the API).
// Not part of the module's public header.
#pragma once

#include "cove_mpris.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#define MPRIS_PATH "/org/mpris/MediaPlayer2"
#define MPRIS_PREFIX "org.mpris.MediaPlayer2."
#define ROOT_INTERFACE "org.mpris.MediaPlayer2"
#define PLAYER_INTERFACE "org.mpris.MediaPlayer2.Player"
#define NO_TRACK "/org/mpris/MediaPlayer2/TrackList/NoTrack"
#define DBUS_NAME_FLAG_DO_NOT_QUEUE 4u
#define DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER 1u
#define DBUS_REQUEST_NAME_REPLY_EXISTS 3u
#define DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER 4u
#define INSTANCE_ATTEMPTS 16

typedef struct {
    CoveMprisPlaybackStatus status;
    double rate;
    double volume;
    gboolean can_go_next, can_go_previous, can_play, can_pause, can_seek, can_quit, can_raise;
    char *track_id;
    int64_t length_us;
    char *title, *art_url, *url, *video_id;
} State;

struct CoveMpris {
    // Set before the thread starts, never changed after.
    char *address;
    char *suffix;
    char *identity;
    char *desktop_entry;
    char **uri_schemes;
    char **mime_types;
    double minimum_rate, maximum_rate;
    int timeout_ms;
    CoveMprisHandler handler;
    void *context;
    GMainContext *main_context;
    GMainLoop *loop;
    GThread *thread;
    GCancellable *cancellable;

    // The setup handshake between cove_mpris_start and the thread.
    GMutex setup_lock;
    GCond setup_cond;
    gboolean setup_done;
    CoveMprisResult setup_result;
    char *setup_error;

    // Owned by the thread (written in setup, read in teardown).
    GDBusNodeInfo *node;
    guint root_id, player_id;
    char *bus_name;

    // Under `lock`.
    GMutex lock;
    GDBusConnection *connection;  // NULL before setup finished and once teardown began
    State state;
    int64_t position_us;
    gint64 position_at;  // monotonic µs
};

/// The properties that changed, for one PropertiesChanged signal.
typedef struct {
    GVariantBuilder builder;
    int count;
} Changes;

#pragma GCC visibility push(hidden)
char *introspection_xml(gboolean desktop_entry);
const char *status_name(CoveMprisPlaybackStatus status);
gboolean has_track(const State *state);
int64_t position_locked(const CoveMpris *self);
void fold_position_locked(CoveMpris *self);
GVariant *metadata_locked(const CoveMpris *self);
GVariant *root_property_locked(const CoveMpris *self, const char *name);
GVariant *player_property_locked(const CoveMpris *self, const char *name);
void changes_init(Changes *changes);
void changes_add(Changes *changes, const char *name, GVariant *value);
void emit_changes_locked(CoveMpris *self, const char *interface, Changes *changes);
gboolean replace_string(char **slot, const char *value);
#pragma GCC visibility pop
