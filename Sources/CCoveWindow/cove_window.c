#include "cove_window.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xcb.h>

enum { ATOM_WM_PROTOCOLS, ATOM_WM_DELETE_WINDOW, ATOM_NET_WM_NAME, ATOM_UTF8_STRING, ATOM_NET_WM_STATE, ATOM_NET_WM_STATE_FULLSCREEN,
       ATOM_NET_SUPPORTING_WM_CHECK, ATOM_NET_WM_PID, ATOM_COVE_WAKE, ATOM_COUNT };

static const char *const atom_names[ATOM_COUNT] = {
    "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN",
    "_NET_SUPPORTING_WM_CHECK", "_NET_WM_PID", "_COVE_WAKE",
};

struct CoveWindow {
    xcb_connection_t *connection;
    xcb_screen_t *screen;
    xcb_window_t window;
    xcb_window_t parent;
    xcb_atom_t atoms[ATOM_COUNT];
    int32_t width, height;
    /// Keyboard mapping: keysyms for keycodes min_keycode … max_keycode, `per_keycode` each.
    xcb_keysym_t *keysyms;
    int keysym_count;
    uint8_t min_keycode;
    uint8_t per_keycode;
    /// Geometry before a full screen the window made itself (no window manager).
    bool self_fullscreen;
    int32_t saved_x, saved_y, saved_width, saved_height;
    pthread_mutex_t lock;
};

static char *cove_strdup_printf(const char *format, const char *argument) {
    size_t size = strlen(format) + (argument ? strlen(argument) : 0) + 64;
    char *text = malloc(size);
    snprintf(text, size, format, argument ? argument : "");
    return text;
}

static void cove_intern_atoms(CoveWindow *w) {
    xcb_intern_atom_cookie_t cookies[ATOM_COUNT];
    for (int i = 0; i < ATOM_COUNT; i++) cookies[i] = xcb_intern_atom(w->connection, 0, (uint16_t)strlen(atom_names[i]), atom_names[i]);
    for (int i = 0; i < ATOM_COUNT; i++) {
        xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(w->connection, cookies[i], NULL);
        w->atoms[i] = reply ? reply->atom : XCB_ATOM_NONE;
        free(reply);
    }
}

static void cove_load_keyboard(CoveWindow *w) {
    const xcb_setup_t *setup = xcb_get_setup(w->connection);
    w->min_keycode = setup->min_keycode;
    uint8_t count = (uint8_t)(setup->max_keycode - setup->min_keycode + 1);
    xcb_get_keyboard_mapping_reply_t *reply =
        xcb_get_keyboard_mapping_reply(w->connection, xcb_get_keyboard_mapping(w->connection, setup->min_keycode, count), NULL);
    if (!reply) return;
    int length = xcb_get_keyboard_mapping_keysyms_length(reply);
    w->keysyms = malloc(sizeof(xcb_keysym_t) * (size_t)(length > 0 ? length : 1));
    memcpy(w->keysyms, xcb_get_keyboard_mapping_keysyms(reply), sizeof(xcb_keysym_t) * (size_t)(length > 0 ? length : 0));
    w->keysym_count = length;
    w->per_keycode = reply->keysyms_per_keycode;
    free(reply);
}

static uint32_t cove_keysym(CoveWindow *w, uint8_t keycode, uint16_t state) {
    if (!w->keysyms || w->per_keycode == 0 || keycode < w->min_keycode) return 0;
    int base = (keycode - w->min_keycode) * w->per_keycode;
    int shifted = (state & XCB_MOD_MASK_SHIFT) && w->per_keycode > 1 ? 1 : 0;
    if (base + shifted >= w->keysym_count) return 0;
    uint32_t symbol = w->keysyms[base + shifted];
    if (symbol == 0 && shifted) symbol = w->keysyms[base];
    return symbol;
}

static void cove_set_string_property(CoveWindow *w, xcb_atom_t property, xcb_atom_t type, const char *text) {
    xcb_change_property(w->connection, XCB_PROP_MODE_REPLACE, w->window, property, type, 8, (uint32_t)strlen(text), text);
}

CoveWindow *cove_window_open(const char *display, uint32_t parent, int32_t width, int32_t height, const char *title, char **error) {
    int screen_number = 0;
    xcb_connection_t *connection = xcb_connect(display, &screen_number);
    if (!connection || xcb_connection_has_error(connection)) {
        if (connection) xcb_disconnect(connection);
        if (error) *error = cove_strdup_printf("cannot connect to the X11 display \"%s\"", display ? display : getenv("DISPLAY"));
        return NULL;
    }
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(connection));
    for (int i = 0; i < screen_number && screens.rem; i++) xcb_screen_next(&screens);
    if (!screens.data) {
        xcb_disconnect(connection);
        if (error) *error = cove_strdup_printf("the X11 display \"%s\" has no screen", display);
        return NULL;
    }
    CoveWindow *w = calloc(1, sizeof(CoveWindow));
    pthread_mutex_init(&w->lock, NULL);
    w->connection = connection;
    w->screen = screens.data;
    w->parent = parent;
    cove_intern_atoms(w);
    cove_load_keyboard(w);

    xcb_window_t container = w->screen->root;
    int32_t x = 0, y = 0;
    if (parent) {
        xcb_get_geometry_reply_t *geometry = xcb_get_geometry_reply(connection, xcb_get_geometry(connection, parent), NULL);
        if (!geometry) {
            if (error) {
                char id[32];
                snprintf(id, sizeof id, "0x%x", parent);
                *error = cove_strdup_printf("there is no X11 window %s to draw the player into", id);
            }
            free(w->keysyms);
            free(w);
            xcb_disconnect(connection);
            return NULL;
        }
        width = geometry->width;
        height = geometry->height;
        free(geometry);
        container = parent;
        // Follow the app's window: its size changes and its end come to this connection too (each client
        // keeps its own event mask on a window, so the app's own selection is untouched).
        uint32_t parent_mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY;
        xcb_change_window_attributes(connection, parent, XCB_CW_EVENT_MASK, &parent_mask);
    }
    if (width <= 0) width = 1280;
    if (height <= 0) height = 720;
    w->width = width;
    w->height = height;
    w->window = xcb_generate_id(connection);
    uint32_t values[2] = {
        w->screen->black_pixel,
        XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_POINTER_MOTION | XCB_EVENT_MASK_BUTTON_PRESS |
            XCB_EVENT_MASK_BUTTON_RELEASE | XCB_EVENT_MASK_KEY_PRESS | XCB_EVENT_MASK_LEAVE_WINDOW,
    };
    xcb_void_cookie_t created = xcb_create_window_checked(connection, XCB_COPY_FROM_PARENT, w->window, container, (int16_t)x, (int16_t)y,
                                                          (uint16_t)width, (uint16_t)height, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                                                          w->screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
    xcb_generic_error_t *failure = xcb_request_check(connection, created);
    if (failure) {
        free(failure);
        if (error) *error = cove_strdup_printf("the X server refused to create the player's window%s", "");
        free(w->keysyms);
        free(w);
        xcb_disconnect(connection);
        return NULL;
    }
    if (!parent) {
        const char *name = title && *title ? title : "Cove";
        cove_set_string_property(w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, name);
        cove_set_string_property(w, w->atoms[ATOM_NET_WM_NAME], w->atoms[ATOM_UTF8_STRING], name);
        static const char wm_class[] = "cove\0Cove";
        xcb_change_property(connection, XCB_PROP_MODE_REPLACE, w->window, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8, sizeof wm_class, wm_class);
        xcb_atom_t protocols[1] = {w->atoms[ATOM_WM_DELETE_WINDOW]};
        xcb_change_property(connection, XCB_PROP_MODE_REPLACE, w->window, w->atoms[ATOM_WM_PROTOCOLS], XCB_ATOM_ATOM, 32, 1, protocols);
        uint32_t pid = (uint32_t)getpid();
        xcb_change_property(connection, XCB_PROP_MODE_REPLACE, w->window, w->atoms[ATOM_NET_WM_PID], XCB_ATOM_CARDINAL, 32, 1, &pid);
    }
    xcb_map_window(connection, w->window);
    xcb_flush(connection);
    return w;
}

uint32_t cove_window_id(CoveWindow *w) { return w->window; }

void *cove_window_connection(CoveWindow *w) { return w->connection; }

bool cove_window_size(CoveWindow *w, int32_t *width, int32_t *height) {
    xcb_get_geometry_reply_t *geometry = xcb_get_geometry_reply(w->connection, xcb_get_geometry(w->connection, w->window), NULL);
    if (!geometry) return false;
    *width = geometry->width;
    *height = geometry->height;
    free(geometry);
    return true;
}

static void cove_fill_pointer(CoveWindowEvent *event, int16_t x, int16_t y, uint16_t state) {
    event->x = x;
    event->y = y;
    event->modifiers = state;
}

void cove_window_next_event(CoveWindow *w, CoveWindowEvent *event) {
    memset(event, 0, sizeof(*event));
    for (;;) {
        xcb_generic_event_t *raw = xcb_wait_for_event(w->connection);
        if (!raw) {
            event->type = COVE_WINDOW_EVENT_DISCONNECTED;
            return;
        }
        uint8_t type = raw->response_type & 0x7f;
        switch (type) {
        case XCB_EXPOSE: {
            xcb_expose_event_t *e = (xcb_expose_event_t *)raw;
            if (e->window == w->window && e->count == 0) {
                event->type = COVE_WINDOW_EVENT_EXPOSE;
                free(raw);
                return;
            }
            break;
        }
        case XCB_CONFIGURE_NOTIFY: {
            xcb_configure_notify_event_t *e = (xcb_configure_notify_event_t *)raw;
            if (w->parent && e->window == w->parent) {
                // The app's window changed size: the player's child fills it again.
                uint32_t size[2] = {e->width, e->height};
                xcb_configure_window(w->connection, w->window, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
                xcb_flush(w->connection);
            } else if (e->window == w->window && (e->width != w->width || e->height != w->height)) {
                w->width = e->width;
                w->height = e->height;
                event->type = COVE_WINDOW_EVENT_RESIZE;
                event->width = e->width;
                event->height = e->height;
                free(raw);
                return;
            }
            break;
        }
        case XCB_MOTION_NOTIFY: {
            xcb_motion_notify_event_t *e = (xcb_motion_notify_event_t *)raw;
            event->type = COVE_WINDOW_EVENT_POINTER_MOTION;
            cove_fill_pointer(event, e->event_x, e->event_y, e->state);
            free(raw);
            return;
        }
        case XCB_BUTTON_PRESS:
        case XCB_BUTTON_RELEASE: {
            xcb_button_press_event_t *e = (xcb_button_press_event_t *)raw;
            event->type = type == XCB_BUTTON_PRESS ? COVE_WINDOW_EVENT_BUTTON_PRESS : COVE_WINDOW_EVENT_BUTTON_RELEASE;
            event->button = e->detail;
            cove_fill_pointer(event, e->event_x, e->event_y, e->state);
            free(raw);
            return;
        }
        case XCB_KEY_PRESS: {
            xcb_key_press_event_t *e = (xcb_key_press_event_t *)raw;
            event->type = COVE_WINDOW_EVENT_KEY_PRESS;
            event->keysym = cove_keysym(w, e->detail, e->state);
            cove_fill_pointer(event, e->event_x, e->event_y, e->state);
            free(raw);
            return;
        }
        case XCB_LEAVE_NOTIFY: {
            xcb_leave_notify_event_t *e = (xcb_leave_notify_event_t *)raw;
            if (e->event == w->window && e->detail != XCB_NOTIFY_DETAIL_INFERIOR) {
                event->type = COVE_WINDOW_EVENT_POINTER_LEFT;
                free(raw);
                return;
            }
            break;
        }
        case XCB_CLIENT_MESSAGE: {
            xcb_client_message_event_t *e = (xcb_client_message_event_t *)raw;
            if (e->type == w->atoms[ATOM_COVE_WAKE]) {
                event->type = COVE_WINDOW_EVENT_WAKE;
                free(raw);
                return;
            }
            if (e->type == w->atoms[ATOM_WM_PROTOCOLS] && e->data.data32[0] == w->atoms[ATOM_WM_DELETE_WINDOW]) {
                event->type = COVE_WINDOW_EVENT_CLOSE_REQUESTED;
                free(raw);
                return;
            }
            break;
        }
        case XCB_DESTROY_NOTIFY: {
            xcb_destroy_notify_event_t *e = (xcb_destroy_notify_event_t *)raw;
            if (e->window == w->window || (w->parent && e->window == w->parent)) {
                event->type = COVE_WINDOW_EVENT_DISCONNECTED;
                free(raw);
                return;
            }
            break;
        }
        default:
            break;
        }
        free(raw);
    }
}

void cove_window_wake(CoveWindow *w) {
    xcb_client_message_event_t message;
    memset(&message, 0, sizeof message);
    message.response_type = XCB_CLIENT_MESSAGE;
    message.format = 32;
    message.window = w->window;
    message.type = w->atoms[ATOM_COVE_WAKE];
    xcb_send_event(w->connection, 0, w->window, XCB_EVENT_MASK_NO_EVENT, (const char *)&message);
    xcb_flush(w->connection);
}

void cove_window_set_title(CoveWindow *w, const char *title) {
    if (w->parent || !title) return;
    cove_set_string_property(w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, title);
    cove_set_string_property(w, w->atoms[ATOM_NET_WM_NAME], w->atoms[ATOM_UTF8_STRING], title);
    xcb_flush(w->connection);
}

static bool cove_window_manager_running(CoveWindow *w) {
    xcb_get_property_reply_t *reply = xcb_get_property_reply(
        w->connection, xcb_get_property(w->connection, 0, w->screen->root, w->atoms[ATOM_NET_SUPPORTING_WM_CHECK], XCB_ATOM_WINDOW, 0, 1), NULL);
    bool running = reply && xcb_get_property_value_length(reply) >= 4;
    free(reply);
    return running;
}

void cove_window_set_fullscreen(CoveWindow *w, bool fullscreen) {
    if (w->parent) return;
    pthread_mutex_lock(&w->lock);
    if (cove_window_manager_running(w)) {
        xcb_client_message_event_t message;
        memset(&message, 0, sizeof message);
        message.response_type = XCB_CLIENT_MESSAGE;
        message.format = 32;
        message.window = w->window;
        message.type = w->atoms[ATOM_NET_WM_STATE];
        message.data.data32[0] = fullscreen ? 1 : 0;
        message.data.data32[1] = w->atoms[ATOM_NET_WM_STATE_FULLSCREEN];
        message.data.data32[3] = 1;  // a normal application
        xcb_send_event(w->connection, 0, w->screen->root, XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                       (const char *)&message);
    } else {
        // Nobody manages windows (a kiosk, a set-top box, Xvfb): the window does what a manager would.
        if (fullscreen && !w->self_fullscreen) {
            xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(w->connection, xcb_get_geometry(w->connection, w->window), NULL);
            if (g) {
                w->saved_x = g->x;
                w->saved_y = g->y;
                w->saved_width = g->width;
                w->saved_height = g->height;
                free(g);
            }
            xcb_atom_t state[1] = {w->atoms[ATOM_NET_WM_STATE_FULLSCREEN]};
            xcb_change_property(w->connection, XCB_PROP_MODE_REPLACE, w->window, w->atoms[ATOM_NET_WM_STATE], XCB_ATOM_ATOM, 32, 1, state);
            uint32_t geometry[5] = {0, 0, w->screen->width_in_pixels, w->screen->height_in_pixels, XCB_STACK_MODE_ABOVE};
            xcb_configure_window(w->connection, w->window,
                                 XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT |
                                     XCB_CONFIG_WINDOW_STACK_MODE,
                                 geometry);
            w->self_fullscreen = true;
        } else if (!fullscreen && w->self_fullscreen) {
            xcb_change_property(w->connection, XCB_PROP_MODE_REPLACE, w->window, w->atoms[ATOM_NET_WM_STATE], XCB_ATOM_ATOM, 32, 0, NULL);
            uint32_t geometry[4] = {(uint32_t)w->saved_x, (uint32_t)w->saved_y, (uint32_t)w->saved_width, (uint32_t)w->saved_height};
            xcb_configure_window(w->connection, w->window,
                                 XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, geometry);
            w->self_fullscreen = false;
        }
    }
    xcb_flush(w->connection);
    pthread_mutex_unlock(&w->lock);
}

bool cove_window_is_fullscreen(CoveWindow *w) {
    xcb_get_property_reply_t *reply = xcb_get_property_reply(
        w->connection, xcb_get_property(w->connection, 0, w->window, w->atoms[ATOM_NET_WM_STATE], XCB_ATOM_ATOM, 0, 32), NULL);
    bool found = false;
    if (reply) {
        int count = xcb_get_property_value_length(reply) / 4;
        xcb_atom_t *atoms = xcb_get_property_value(reply);
        for (int i = 0; i < count; i++) found = found || atoms[i] == w->atoms[ATOM_NET_WM_STATE_FULLSCREEN];
        free(reply);
    }
    return found;
}

void cove_window_focus(CoveWindow *w) {
    xcb_set_input_focus(w->connection, XCB_INPUT_FOCUS_POINTER_ROOT, w->window, XCB_CURRENT_TIME);
    xcb_flush(w->connection);
}

void cove_window_close(CoveWindow *w) {
    if (!w) return;
    xcb_destroy_window(w->connection, w->window);
    xcb_flush(w->connection);
    xcb_disconnect(w->connection);
    free(w->keysyms);
    pthread_mutex_destroy(&w->lock);
    free(w);
}
