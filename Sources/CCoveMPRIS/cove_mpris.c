// MPRIS2 over GDBus. GVariant's builders are variadic, so this side is C; CoveMPRIS drives it.
//
// Threads: the object owns a GMainContext and a thread that runs it. That thread connects, exports the
// object and takes the name with the context pushed as its thread-default, so GDBus dispatches method
// calls and property reads there. Setters from other threads take `lock`, change the state and emit
// signals while holding it (g_dbus_connection_emit_signal is thread-safe; holding the lock keeps the
// signals in the order of the changes). The handler into Swift is always called without the lock.

#include "cove_mpris_internal.h"

// MARK: Bus callbacks (on the thread)

static void call_handler(CoveMpris *self, CoveMprisRequest *request) {
    g_mutex_lock(&self->lock);
    request->position_us = position_locked(self);
    g_mutex_unlock(&self->lock);
    self->handler(self->context, request);
}

static gboolean scheme_supported(const CoveMpris *self, const char *uri) {
    char *scheme = g_uri_parse_scheme(uri);
    gboolean supported = FALSE;
    for (char **s = self->uri_schemes; scheme != NULL && *s != NULL && !supported; s++) supported = g_ascii_strcasecmp(*s, scheme) == 0;
    g_free(scheme);
    return supported;
}

static void method_call(
    GDBusConnection *connection, const gchar *sender, const gchar *path, const gchar *interface, const gchar *method, GVariant *parameters,
    GDBusMethodInvocation *invocation, gpointer data) {
    (void)connection, (void)sender, (void)path;
    CoveMpris *self = data;
    CoveMprisRequest request = {0};
    const char *uri = NULL;
    if (strcmp(interface, ROOT_INTERFACE) == 0 && strcmp(method, "Raise") == 0) {
        request.kind = COVE_MPRIS_REQUEST_RAISE;
    } else if (strcmp(interface, ROOT_INTERFACE) == 0 && strcmp(method, "Quit") == 0) {
        request.kind = COVE_MPRIS_REQUEST_QUIT;
    } else if (strcmp(interface, PLAYER_INTERFACE) != 0) {
        g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD, "No method %s.%s", interface, method);
        return;
    } else if (strcmp(method, "PlayPause") == 0) {
        request.kind = COVE_MPRIS_REQUEST_PLAY_PAUSE;
    } else if (strcmp(method, "Play") == 0) {
        request.kind = COVE_MPRIS_REQUEST_PLAY;
    } else if (strcmp(method, "Pause") == 0) {
        request.kind = COVE_MPRIS_REQUEST_PAUSE;
    } else if (strcmp(method, "Stop") == 0) {
        request.kind = COVE_MPRIS_REQUEST_STOP;
    } else if (strcmp(method, "Next") == 0) {
        request.kind = COVE_MPRIS_REQUEST_NEXT;
    } else if (strcmp(method, "Previous") == 0) {
        request.kind = COVE_MPRIS_REQUEST_PREVIOUS;
    } else if (strcmp(method, "Seek") == 0) {
        request.kind = COVE_MPRIS_REQUEST_SEEK;
        g_variant_get(parameters, "(x)", &request.offset_us);
    } else if (strcmp(method, "SetPosition") == 0) {
        request.kind = COVE_MPRIS_REQUEST_SET_POSITION;
        g_variant_get(parameters, "(&ox)", &request.text, &request.offset_us);
    } else if (strcmp(method, "OpenUri") == 0) {
        g_variant_get(parameters, "(&s)", &uri);
        if (!scheme_supported(self, uri)) {
            char *schemes = g_strjoinv(", ", self->uri_schemes);
            g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.NotSupported", schemes[0] ? "The URI's scheme is not one of SupportedUriSchemes" : "This player opens no URIs");
            g_free(schemes);
            return;
        }
        request.kind = COVE_MPRIS_REQUEST_OPEN_URI;
        request.text = uri;
    } else {
        g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD, "No method %s.%s", interface, method);
        return;
    }
    call_handler(self, &request);
    g_dbus_method_invocation_return_value(invocation, NULL);
}

static GVariant *get_property(
    GDBusConnection *connection, const gchar *sender, const gchar *path, const gchar *interface, const gchar *name, GError **error, gpointer data) {
    (void)connection, (void)sender, (void)path;
    CoveMpris *self = data;
    g_mutex_lock(&self->lock);
    GVariant *value = strcmp(interface, ROOT_INTERFACE) == 0 ? root_property_locked(self, name) : player_property_locked(self, name);
    g_mutex_unlock(&self->lock);
    if (value == NULL) g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_PROPERTY, "No property %s.%s", interface, name);
    return value;
}

static gboolean set_property(
    GDBusConnection *connection, const gchar *sender, const gchar *path, const gchar *interface, const gchar *name, GVariant *value, GError **error,
    gpointer data) {
    (void)connection, (void)sender, (void)path;
    CoveMpris *self = data;
    if (strcmp(interface, PLAYER_INTERFACE) != 0 || !g_variant_is_of_type(value, G_VARIANT_TYPE_DOUBLE)
        || (strcmp(name, "Volume") != 0 && strcmp(name, "Rate") != 0)) {
        g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_PROPERTY_READ_ONLY, "%s.%s cannot be set", interface, name);
        return FALSE;
    }
    double number = g_variant_get_double(value);
    if (isnan(number)) {
        g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS, "%s must be a number", name);
        return FALSE;
    }
    CoveMprisRequest request = {0};
    Changes changes;
    changes_init(&changes);
    if (strcmp(name, "Volume") == 0) {
        // The spec: a negative volume is 0. Cove's volume tops out at the stream's level (1).
        number = number < 0 ? 0 : (number > 1 ? 1 : number);
        request.kind = COVE_MPRIS_REQUEST_SET_VOLUME;
        g_mutex_lock(&self->lock);
        if (self->state.volume != number) {
            self->state.volume = number;
            changes_add(&changes, "Volume", g_variant_new_double(number));
        }
        emit_changes_locked(self, PLAYER_INTERFACE, &changes);
        g_mutex_unlock(&self->lock);
    } else if (number == 0) {
        // The spec: setting Rate to 0 acts as Pause.
        g_variant_builder_clear(&changes.builder);
        request.kind = COVE_MPRIS_REQUEST_PAUSE;
    } else if (number < self->minimum_rate || number > self->maximum_rate) {
        g_variant_builder_clear(&changes.builder);
        g_set_error(
            error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS, "Rate %g is outside MinimumRate %g … MaximumRate %g", number, self->minimum_rate,
            self->maximum_rate);
        return FALSE;
    } else {
        request.kind = COVE_MPRIS_REQUEST_SET_RATE;
        g_mutex_lock(&self->lock);
        if (self->state.rate != number) {
            fold_position_locked(self);
            self->state.rate = number;
            changes_add(&changes, "Rate", g_variant_new_double(number));
        }
        emit_changes_locked(self, PLAYER_INTERFACE, &changes);
        g_mutex_unlock(&self->lock);
    }
    request.value = number;
    call_handler(self, &request);
    return TRUE;
}

static const GDBusInterfaceVTable vtable = {method_call, get_property, set_property, {0}};

// MARK: Setup and teardown (on the thread)

static gboolean request_name(CoveMpris *self, GDBusConnection *connection, const char *name, guint32 *reply, GError **error) {
    GVariant *result = g_dbus_connection_call_sync(
        connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
        g_variant_new("(su)", name, DBUS_NAME_FLAG_DO_NOT_QUEUE), G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, self->timeout_ms, self->cancellable, error);
    if (result == NULL) return FALSE;
    g_variant_get(result, "(u)", reply);
    g_variant_unref(result);
    return TRUE;
}

/// Takes "org.mpris.MediaPlayer2.<suffix>", else the spec's "<suffix>.instance<pid>" (and, for more
/// than one player in a process, "<suffix>.instance<pid>_<n>"): never queued, so nobody's name is taken.
static CoveMprisResult take_name(CoveMpris *self, GDBusConnection *connection, char **message) {
    GError *error = NULL;
    for (int attempt = -1; attempt < INSTANCE_ATTEMPTS; attempt++) {
        char *name = attempt < 0 ? g_strdup_printf(MPRIS_PREFIX "%s", self->suffix)
            : attempt == 0       ? g_strdup_printf(MPRIS_PREFIX "%s.instance%ld", self->suffix, (long)getpid())
                                 : g_strdup_printf(MPRIS_PREFIX "%s.instance%ld_%d", self->suffix, (long)getpid(), attempt + 1);
        guint32 reply = 0;
        if (!request_name(self, connection, name, &reply, &error)) {
            *message = g_strdup_printf("The bus did not answer RequestName(%s): %s", name, error->message);
            g_clear_error(&error);
            g_free(name);
            return COVE_MPRIS_ERROR_NAME;
        }
        if (reply == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || reply == DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER) {
            self->bus_name = name;
            return COVE_MPRIS_OK;
        }
        g_free(name);
        if (reply != DBUS_REQUEST_NAME_REPLY_EXISTS) break;
    }
    *message = g_strdup_printf("Every MPRIS name for \"%s\" on this bus is taken (" MPRIS_PREFIX "%s and its instance names)", self->suffix, self->suffix);
    return COVE_MPRIS_ERROR_NAME;
}

static void close_connection(CoveMpris *self, GDBusConnection *connection) {
    if (self->bus_name != NULL && !g_dbus_connection_is_closed(connection)) {
        GVariant *result = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReleaseName", g_variant_new("(s)", self->bus_name),
            G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, self->timeout_ms, NULL, NULL);
        if (result != NULL) g_variant_unref(result);
    }
    if (self->player_id != 0) g_dbus_connection_unregister_object(connection, self->player_id);
    if (self->root_id != 0) g_dbus_connection_unregister_object(connection, self->root_id);
    self->player_id = self->root_id = 0;
    // Flushes the ReleaseName reply's peers' signals and closes; an error means it was closed already.
    g_dbus_connection_close_sync(connection, NULL, NULL);
    g_object_unref(connection);
}

static CoveMprisResult setup(CoveMpris *self, char **message) {
    GError *error = NULL;
    GDBusConnection *connection = g_dbus_connection_new_for_address_sync(
        self->address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, self->cancellable, &error);
    if (connection == NULL) {
        *message = g_strdup_printf("Cannot connect to the D-Bus bus at %s: %s", self->address, error->message);
        g_error_free(error);
        return COVE_MPRIS_ERROR_NO_BUS;
    }
    // A private connection: when the bus goes away the process goes on (g_bus_get's shared one would exit).
    g_dbus_connection_set_exit_on_close(connection, FALSE);

    char *xml = introspection_xml(self->desktop_entry != NULL);
    self->node = g_dbus_node_info_new_for_xml(xml, &error);
    g_free(xml);
    if (self->node == NULL) {
        *message = g_strdup_printf("MPRIS introspection data does not parse: %s", error->message);
        g_error_free(error);
        close_connection(self, connection);
        return COVE_MPRIS_ERROR_INTERNAL;
    }
    // The object exists before the name does: a client that sees the name appear finds it.
    self->root_id = g_dbus_connection_register_object(connection, MPRIS_PATH, self->node->interfaces[0], &vtable, self, NULL, &error);
    if (self->root_id != 0) self->player_id = g_dbus_connection_register_object(connection, MPRIS_PATH, self->node->interfaces[1], &vtable, self, NULL, &error);
    if (self->player_id == 0) {
        *message = g_strdup_printf("Cannot export " MPRIS_PATH ": %s", error->message);
        g_error_free(error);
        close_connection(self, connection);
        return COVE_MPRIS_ERROR_REGISTER;
    }
    CoveMprisResult result = take_name(self, connection, message);
    if (result != COVE_MPRIS_OK) {
        close_connection(self, connection);
        return result;
    }
    g_mutex_lock(&self->lock);
    self->connection = connection;
    g_mutex_unlock(&self->lock);
    return COVE_MPRIS_OK;
}

static void teardown(CoveMpris *self) {
    g_mutex_lock(&self->lock);
    GDBusConnection *connection = self->connection;
    self->connection = NULL;
    g_mutex_unlock(&self->lock);
    if (connection != NULL) close_connection(self, connection);
}

static gpointer thread_main(gpointer data) {
    CoveMpris *self = data;
    g_main_context_push_thread_default(self->main_context);
    char *message = NULL;
    CoveMprisResult result = setup(self, &message);
    g_mutex_lock(&self->setup_lock);
    self->setup_result = result;
    self->setup_error = message;
    self->setup_done = TRUE;
    g_cond_signal(&self->setup_cond);
    g_mutex_unlock(&self->setup_lock);
    if (result == COVE_MPRIS_OK) {
        g_main_loop_run(self->loop);
        teardown(self);
    }
    // Let GDBus's last idle callbacks for this context run (they hold references to the connection);
    // bounded, so a source that keeps rescheduling itself cannot keep the thread from ending.
    for (int i = 0; i < 64 && g_main_context_iteration(self->main_context, FALSE); i++) {
    }
    g_main_context_pop_thread_default(self->main_context);
    return NULL;
}

static gboolean quit_loop(gpointer data) {
    g_main_loop_quit(data);
    return G_SOURCE_REMOVE;
}

// MARK: API

static void free_state(State *state) {
    g_free(state->track_id);
    g_free(state->title);
    g_free(state->art_url);
    g_free(state->url);
    g_free(state->video_id);
}

static void free_self(CoveMpris *self) {
    free_state(&self->state);
    g_free(self->address);
    g_free(self->suffix);
    g_free(self->identity);
    g_free(self->desktop_entry);
    g_strfreev(self->uri_schemes);
    g_strfreev(self->mime_types);
    g_free(self->bus_name);
    g_free(self->setup_error);
    if (self->node != NULL) g_dbus_node_info_unref(self->node);
    if (self->cancellable != NULL) g_object_unref(self->cancellable);
    if (self->loop != NULL) g_main_loop_unref(self->loop);
    if (self->main_context != NULL) g_main_context_unref(self->main_context);
    g_mutex_clear(&self->lock);
    g_mutex_clear(&self->setup_lock);
    g_cond_clear(&self->setup_cond);
    g_free(self);
}

static gboolean valid_text(const char *text) {
    return text != NULL && text[0] != '\0' && g_utf8_validate(text, -1, NULL);
}

static gboolean valid_list(const char *const *list) {
    for (; list != NULL && *list != NULL; list++) {
        if (!valid_text(*list)) return FALSE;
    }
    return TRUE;
}

CoveMprisResult cove_mpris_start(const CoveMprisConfig *config, CoveMprisHandler handler, void *context, CoveMpris **out, char **error_message) {
    *out = NULL;
    *error_message = NULL;
    if (config == NULL || handler == NULL || !valid_text(config->address) || !valid_text(config->identity) || !valid_text(config->bus_name_suffix)
        || (config->desktop_entry != NULL && !valid_text(config->desktop_entry)) || !valid_list(config->uri_schemes) || !valid_list(config->mime_types)
        || !(config->minimum_rate > 0) || !(config->maximum_rate >= config->minimum_rate)) {
        *error_message = g_strdup("The MPRIS configuration is incomplete (address, identity, suffix, rates)");
        return COVE_MPRIS_ERROR_ARGUMENT;
    }
    char *name = g_strdup_printf(MPRIS_PREFIX "%s.instance%ld_%d", config->bus_name_suffix, (long)getpid(), INSTANCE_ATTEMPTS);
    gboolean name_ok = g_dbus_is_name(name) && !g_dbus_is_unique_name(name);
    g_free(name);
    if (!name_ok) {
        *error_message = g_strdup_printf(
            "\"%s\" cannot end a D-Bus name: use letters, digits, '_' and '-', no element starting with a digit", config->bus_name_suffix);
        return COVE_MPRIS_ERROR_ARGUMENT;
    }

    CoveMpris *self = g_new0(CoveMpris, 1);
    g_mutex_init(&self->lock);
    g_mutex_init(&self->setup_lock);
    g_cond_init(&self->setup_cond);
    self->address = g_strdup(config->address);
    self->suffix = g_strdup(config->bus_name_suffix);
    self->identity = g_strdup(config->identity);
    self->desktop_entry = g_strdup(config->desktop_entry);
    self->uri_schemes = g_strdupv((gchar **)(config->uri_schemes != NULL ? config->uri_schemes : (const char *const[]){NULL}));
    self->mime_types = g_strdupv((gchar **)(config->mime_types != NULL ? config->mime_types : (const char *const[]){NULL}));
    self->minimum_rate = config->minimum_rate;
    self->maximum_rate = config->maximum_rate;
    self->timeout_ms = config->timeout_ms > 0 ? config->timeout_ms : 5000;
    self->handler = handler;
    self->context = context;
    self->state.status = COVE_MPRIS_STOPPED;
    self->state.rate = 1;
    self->state.volume = 1;
    self->state.length_us = -1;
    self->position_at = g_get_monotonic_time();
    self->main_context = g_main_context_new();
    self->loop = g_main_loop_new(self->main_context, FALSE);
    self->cancellable = g_cancellable_new();

    GError *error = NULL;
    self->thread = g_thread_try_new("cove-mpris", thread_main, self, &error);
    if (self->thread == NULL) {
        *error_message = g_strdup_printf("Cannot start the MPRIS thread: %s", error->message);
        g_error_free(error);
        free_self(self);
        return COVE_MPRIS_ERROR_INTERNAL;
    }
    // Setup is bounded: past the timeout the connection attempt or the name request is cancelled, and
    // cancelling makes them return at once.
    gint64 deadline = g_get_monotonic_time() + (gint64)self->timeout_ms * 2 * G_TIME_SPAN_MILLISECOND;
    g_mutex_lock(&self->setup_lock);
    while (!self->setup_done) {
        if (!g_cond_wait_until(&self->setup_cond, &self->setup_lock, deadline) && !self->setup_done) {
            g_cancellable_cancel(self->cancellable);
            while (!self->setup_done) g_cond_wait(&self->setup_cond, &self->setup_lock);
        }
    }
    CoveMprisResult result = self->setup_result;
    g_mutex_unlock(&self->setup_lock);
    if (result != COVE_MPRIS_OK) {
        g_thread_join(self->thread);
        *error_message = self->setup_error;
        self->setup_error = NULL;
        free_self(self);
        return result;
    }
    *out = self;
    return COVE_MPRIS_OK;
}

const char *cove_mpris_bus_name(const CoveMpris *self) {
    return self->bus_name;
}

void cove_mpris_update(CoveMpris *self, const CoveMprisState *next) {
    Changes player, root;
    changes_init(&player);
    changes_init(&root);
    g_mutex_lock(&self->lock);
    State *state = &self->state;
    if (state->status != next->status) {
        fold_position_locked(self);
        state->status = next->status;
        changes_add(&player, "PlaybackStatus", g_variant_new_string(status_name(next->status)));
    }
    if (state->rate != next->rate && next->rate > 0) {
        fold_position_locked(self);
        state->rate = next->rate;
        changes_add(&player, "Rate", g_variant_new_double(next->rate));
    }
    if (state->volume != next->volume) {
        state->volume = next->volume;
        changes_add(&player, "Volume", g_variant_new_double(next->volume));
    }
#define FLAG(field, name, changes)                                                                                                                             \
    if (state->field != (gboolean)next->field) {                                                                                                           \
        state->field = next->field;                                                                                                                        \
        changes_add(&changes, name, g_variant_new_boolean(next->field));                                                                                   \
    }
    FLAG(can_go_next, "CanGoNext", player)
    FLAG(can_go_previous, "CanGoPrevious", player)
    FLAG(can_play, "CanPlay", player)
    FLAG(can_pause, "CanPause", player)
    FLAG(can_seek, "CanSeek", player)
    FLAG(can_quit, "CanQuit", root)
    FLAG(can_raise, "CanRaise", root)
#undef FLAG
    gboolean metadata = FALSE;
    metadata |= replace_string(&state->track_id, next->track_id);
    metadata |= replace_string(&state->title, next->title);
    metadata |= replace_string(&state->art_url, next->art_url);
    metadata |= replace_string(&state->url, next->url);
    metadata |= replace_string(&state->video_id, next->video_id);
    if (state->length_us != next->length_us) {
        state->length_us = next->length_us;
        metadata = TRUE;
    }
    if (metadata) changes_add(&player, "Metadata", metadata_locked(self));
    emit_changes_locked(self, ROOT_INTERFACE, &root);
    emit_changes_locked(self, PLAYER_INTERFACE, &player);
    g_mutex_unlock(&self->lock);
}

void cove_mpris_set_position(CoveMpris *self, int64_t position_us) {
    g_mutex_lock(&self->lock);
    self->position_us = position_us;
    self->position_at = g_get_monotonic_time();
    g_mutex_unlock(&self->lock);
}

void cove_mpris_seeked(CoveMpris *self, int64_t position_us) {
    g_mutex_lock(&self->lock);
    self->position_us = position_us;
    self->position_at = g_get_monotonic_time();
    if (self->connection != NULL) {
        g_dbus_connection_emit_signal(self->connection, NULL, MPRIS_PATH, PLAYER_INTERFACE, "Seeked", g_variant_new("(x)", (gint64)position_us), NULL);
    }
    g_mutex_unlock(&self->lock);
}

void cove_mpris_stop(CoveMpris *self) {
    if (self == NULL || g_thread_self() == self->thread) return;
    GSource *quit = g_idle_source_new();
    g_source_set_callback(quit, quit_loop, self->loop, NULL);
    g_source_attach(quit, self->main_context);
    g_source_unref(quit);
    g_thread_join(self->thread);
    free_self(self);
}

void cove_mpris_free_string(char *string) {
    g_free(string);
}
