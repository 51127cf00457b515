// MPRIS2 state as D-Bus values: the introspection data, properties and their change signals. Every
// function that reads the state takes `lock` held by its caller (see cove_mpris.c for the threads).

#include "cove_mpris_internal.h"

// MARK: Introspection

char *introspection_xml(gboolean desktop_entry) {
    return g_strdup_printf(
        "<node>"
        " <interface name='" ROOT_INTERFACE "'>"
        "  <method name='Raise'/>"
        "  <method name='Quit'/>"
        "  <property name='CanQuit' type='b' access='read'/>"
        "  <property name='CanRaise' type='b' access='read'/>"
        "  <property name='HasTrackList' type='b' access='read'/>"
        "  <property name='Identity' type='s' access='read'/>"
        "  %s"
        "  <property name='SupportedUriSchemes' type='as' access='read'/>"
        "  <property name='SupportedMimeTypes' type='as' access='read'/>"
        " </interface>"
        " <interface name='" PLAYER_INTERFACE "'>"
        "  <method name='Next'/>"
        "  <method name='Previous'/>"
        "  <method name='Pause'/>"
        "  <method name='PlayPause'/>"
        "  <method name='Stop'/>"
        "  <method name='Play'/>"
        "  <method name='Seek'><arg direction='in' name='Offset' type='x'/></method>"
        "  <method name='SetPosition'><arg direction='in' name='TrackId' type='o'/><arg direction='in' name='Position' type='x'/></method>"
        "  <method name='OpenUri'><arg direction='in' name='Uri' type='s'/></method>"
        "  <signal name='Seeked'><arg name='Position' type='x'/></signal>"
        "  <property name='PlaybackStatus' type='s' access='read'/>"
        "  <property name='Rate' type='d' access='readwrite'/>"
        "  <property name='Metadata' type='a{sv}' access='read'/>"
        "  <property name='Volume' type='d' access='readwrite'/>"
        "  <property name='Position' type='x' access='read'>"
        "   <annotation name='org.freedesktop.DBus.Property.EmitsChangedSignal' value='false'/>"
        "  </property>"
        "  <property name='MinimumRate' type='d' access='read'/>"
        "  <property name='MaximumRate' type='d' access='read'/>"
        "  <property name='CanGoNext' type='b' access='read'/>"
        "  <property name='CanGoPrevious' type='b' access='read'/>"
        "  <property name='CanPlay' type='b' access='read'/>"
        "  <property name='CanPause' type='b' access='read'/>"
        "  <property name='CanSeek' type='b' access='read'/>"
        "  <property name='CanControl' type='b' access='read'>"
        "   <annotation name='org.freedesktop.DBus.Property.EmitsChangedSignal' value='false'/>"
        "  </property>"
        " </interface>"
        "</node>",
        desktop_entry ? "<property name='DesktopEntry' type='s' access='read'/>" : "");
}

// MARK: State (call with `lock` held)

const char *status_name(CoveMprisPlaybackStatus status) {
    switch (status) {
    case COVE_MPRIS_PLAYING: return "Playing";
    case COVE_MPRIS_PAUSED: return "Paused";
    default: return "Stopped";
    }
}

gboolean has_track(const State *state) {
    return state->track_id != NULL && g_variant_is_object_path(state->track_id);
}

/// The playhead now: the last one set, plus the time since at the rate while playing, within 0…length.
int64_t position_locked(const CoveMpris *self) {
    int64_t position = self->position_us;
    if (self->state.status == COVE_MPRIS_PLAYING) {
        gint64 elapsed = g_get_monotonic_time() - self->position_at;
        if (elapsed > 0) position += (int64_t)((double)elapsed * self->state.rate);
    }
    if (position < 0) position = 0;
    if (has_track(&self->state) && self->state.length_us >= 0 && position > self->state.length_us) position = self->state.length_us;
    return position;
}

/// Fixes the extrapolated playhead before the status or the rate changes what it extrapolates with.
void fold_position_locked(CoveMpris *self) {
    self->position_us = position_locked(self);
    self->position_at = g_get_monotonic_time();
}

static void add_string(GVariantBuilder *builder, const char *key, const char *value) {
    if (value != NULL && g_utf8_validate(value, -1, NULL)) g_variant_builder_add(builder, "{sv}", key, g_variant_new_string(value));
}

GVariant *metadata_locked(const CoveMpris *self) {
    const State *state = &self->state;
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{sv}"));
    if (!has_track(state)) {
        g_variant_builder_add(&builder, "{sv}", "mpris:trackid", g_variant_new_object_path(NO_TRACK));
        return g_variant_builder_end(&builder);
    }
    g_variant_builder_add(&builder, "{sv}", "mpris:trackid", g_variant_new_object_path(state->track_id));
    if (state->length_us >= 0) g_variant_builder_add(&builder, "{sv}", "mpris:length", g_variant_new_int64(state->length_us));
    add_string(&builder, "xesam:title", state->title);
    add_string(&builder, "mpris:artUrl", state->art_url);
    add_string(&builder, "xesam:url", state->url);
    add_string(&builder, "cove:videoId", state->video_id);
    return g_variant_builder_end(&builder);
}

static GVariant *string_list(char **strings) {
    return g_variant_new_strv((const gchar *const *)strings, -1);
}

GVariant *root_property_locked(const CoveMpris *self, const char *name) {
    if (strcmp(name, "CanQuit") == 0) return g_variant_new_boolean(self->state.can_quit);
    if (strcmp(name, "CanRaise") == 0) return g_variant_new_boolean(self->state.can_raise);
    if (strcmp(name, "HasTrackList") == 0) return g_variant_new_boolean(FALSE);
    if (strcmp(name, "Identity") == 0) return g_variant_new_string(self->identity);
    if (strcmp(name, "DesktopEntry") == 0 && self->desktop_entry != NULL) return g_variant_new_string(self->desktop_entry);
    if (strcmp(name, "SupportedUriSchemes") == 0) return string_list(self->uri_schemes);
    if (strcmp(name, "SupportedMimeTypes") == 0) return string_list(self->mime_types);
    return NULL;
}

GVariant *player_property_locked(const CoveMpris *self, const char *name) {
    const State *state = &self->state;
    if (strcmp(name, "PlaybackStatus") == 0) return g_variant_new_string(status_name(state->status));
    if (strcmp(name, "Rate") == 0) return g_variant_new_double(state->rate);
    if (strcmp(name, "Metadata") == 0) return metadata_locked(self);
    if (strcmp(name, "Volume") == 0) return g_variant_new_double(state->volume);
    if (strcmp(name, "Position") == 0) return g_variant_new_int64(position_locked(self));
    if (strcmp(name, "MinimumRate") == 0) return g_variant_new_double(self->minimum_rate);
    if (strcmp(name, "MaximumRate") == 0) return g_variant_new_double(self->maximum_rate);
    if (strcmp(name, "CanGoNext") == 0) return g_variant_new_boolean(state->can_go_next);
    if (strcmp(name, "CanGoPrevious") == 0) return g_variant_new_boolean(state->can_go_previous);
    if (strcmp(name, "CanPlay") == 0) return g_variant_new_boolean(state->can_play);
    if (strcmp(name, "CanPause") == 0) return g_variant_new_boolean(state->can_pause);
    if (strcmp(name, "CanSeek") == 0) return g_variant_new_boolean(state->can_seek);
    if (strcmp(name, "CanControl") == 0) return g_variant_new_boolean(TRUE);
    return NULL;
}

void changes_init(Changes *changes) {
    g_variant_builder_init(&changes->builder, G_VARIANT_TYPE("a{sv}"));
    changes->count = 0;
}

void changes_add(Changes *changes, const char *name, GVariant *value) {
    g_variant_builder_add(&changes->builder, "{sv}", name, value);
    changes->count++;
}

void emit_changes_locked(CoveMpris *self, const char *interface, Changes *changes) {
    if (changes->count == 0 || self->connection == NULL) {
        g_variant_builder_clear(&changes->builder);
        return;
    }
    GVariant *parameters = g_variant_new("(s@a{sv}@as)", interface, g_variant_builder_end(&changes->builder), g_variant_new_strv(NULL, 0));
    // Fails only once the connection is closed (the bus went away): nobody is left to tell.
    g_dbus_connection_emit_signal(self->connection, NULL, MPRIS_PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged", parameters, NULL);
}

gboolean replace_string(char **slot, const char *value) {
    if (g_strcmp0(*slot, value) == 0) return FALSE;
    g_free(*slot);
    *slot = g_strdup(value);
    return TRUE;
}
