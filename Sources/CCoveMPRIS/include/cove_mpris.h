// MPRIS2 (org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player) on a D-Bus bus, over GDBus.
//
// One exported object at /org/mpris/MediaPlayer2. It runs its own GMainContext on its own thread, so
// method calls and property reads are answered there whatever the app's threads do; the setters below
// may be called from any thread (they take the object's mutex and emit PropertiesChanged at once).
// The header needs no GLib: Swift imports it without GIO's headers.
#ifndef COVE_MPRIS_H
#define COVE_MPRIS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct CoveMpris CoveMpris;

/// What a client asked for. Properties a client sets (Volume, Rate) arrive as requests too.
typedef enum {
    COVE_MPRIS_REQUEST_PLAY_PAUSE = 1,
    COVE_MPRIS_REQUEST_PLAY,
    COVE_MPRIS_REQUEST_PAUSE,
    COVE_MPRIS_REQUEST_STOP,
    COVE_MPRIS_REQUEST_NEXT,
    COVE_MPRIS_REQUEST_PREVIOUS,
    /// `offset_us`: the Seek offset.
    COVE_MPRIS_REQUEST_SEEK,
    /// `text`: the track ID (an object path); `offset_us`: the position asked for.
    COVE_MPRIS_REQUEST_SET_POSITION,
    /// `text`: the URI (its scheme is one of the supported ones).
    COVE_MPRIS_REQUEST_OPEN_URI,
    /// `value`: the volume, already clamped to 0…1.
    COVE_MPRIS_REQUEST_SET_VOLUME,
    /// `value`: the rate, within MinimumRate…MaximumRate (0 arrives as PAUSE, as the spec says).
    COVE_MPRIS_REQUEST_SET_RATE,
    COVE_MPRIS_REQUEST_RAISE,
    COVE_MPRIS_REQUEST_QUIT,
} CoveMprisRequestKind;

typedef struct {
    CoveMprisRequestKind kind;
    int64_t offset_us;
    /// The Position a client would have read at the moment of the request (µs).
    int64_t position_us;
    double value;
    /// Valid during the handler call only; NULL when the request has no text.
    const char *text;
} CoveMprisRequest;

/// Called on the bus thread, without the object's mutex held. It must not call cove_mpris_stop.
typedef void (*CoveMprisHandler)(void *context, const CoveMprisRequest *request);

typedef enum {
    COVE_MPRIS_STOPPED = 0,
    COVE_MPRIS_PAUSED = 1,
    COVE_MPRIS_PLAYING = 2,
} CoveMprisPlaybackStatus;

/// Every published property but Position. Strings are copied; NULL leaves a metadata field out.
typedef struct {
    CoveMprisPlaybackStatus status;
    double rate;
    double volume;
    bool can_go_next;
    bool can_go_previous;
    bool can_play;
    bool can_pause;
    bool can_seek;
    bool can_quit;
    bool can_raise;
    /// mpris:trackid; NULL (or not an object path) publishes /org/mpris/MediaPlayer2/TrackList/NoTrack
    /// and no other metadata.
    const char *track_id;
    /// mpris:length; negative when unknown (left out).
    int64_t length_us;
    const char *title;
    const char *art_url;
    const char *url;
    /// Published as "cove:videoId".
    const char *video_id;
} CoveMprisState;

typedef struct {
    /// A D-Bus address (`unix:path=…`); the caller resolves the session bus's.
    const char *address;
    /// The bus name is "org.mpris.MediaPlayer2." + suffix, or + suffix + ".instance<pid>" when taken.
    const char *bus_name_suffix;
    const char *identity;
    /// NULL: the DesktopEntry property is not published.
    const char *desktop_entry;
    /// NULL-terminated lists.
    const char *const *uri_schemes;
    const char *const *mime_types;
    double minimum_rate;
    double maximum_rate;
    /// How long connecting and taking a name may take before start gives up.
    int timeout_ms;
} CoveMprisConfig;

typedef enum {
    COVE_MPRIS_OK = 0,
    /// The configuration is unusable (an invalid bus name suffix, a missing address).
    COVE_MPRIS_ERROR_ARGUMENT,
    /// No connection to the bus at that address.
    COVE_MPRIS_ERROR_NO_BUS,
    /// The object could not be exported.
    COVE_MPRIS_ERROR_REGISTER,
    /// Neither the name nor an instance name could be taken.
    COVE_MPRIS_ERROR_NAME,
    /// The thread could not start, or setup did not finish within the timeout.
    COVE_MPRIS_ERROR_INTERNAL,
} CoveMprisResult;

/// Connects, exports the object and takes the name, synchronously (bounded by `timeout_ms`). On
/// success `*out` is the running object; otherwise `*error_message` says why (free it with
/// cove_mpris_free_string).
CoveMprisResult cove_mpris_start(const CoveMprisConfig *config, CoveMprisHandler handler, void *context, CoveMpris **out, char **error_message);

/// The well-known name the object owns.
const char *cove_mpris_bus_name(const CoveMpris *mpris);

/// Publishes `state`: PropertiesChanged for what differs from the last state, nothing when nothing does.
void cove_mpris_update(CoveMpris *mpris, const CoveMprisState *state);

/// The playhead (µs) as of now; reads of Position extrapolate from it while Playing. No signal.
void cove_mpris_set_position(CoveMpris *mpris, int64_t position_us);

/// The playhead jumped: sets it and emits Seeked.
void cove_mpris_seeked(CoveMpris *mpris, int64_t position_us);

/// Releases the name, unexports the object, closes the connection, stops the thread and frees the
/// object. Never call it from the handler (the bus thread cannot join itself: the call is ignored).
void cove_mpris_stop(CoveMpris *mpris);

void cove_mpris_free_string(char *string);

#endif
