import CGStreamer
import CoveCore

/// A GLib main context as the place a controller's callbacks run: the seed calls its delegate "on the
/// main thread", and in a GTK app or a GStreamer app with a `GMainLoop` that thread is the one running
/// the default main context. Give the controller `GLibMainContext.callbackExecutor` and its delegate,
/// consumers and completion handlers run there, in order, one at a time — no hop by hand.
public enum GLibMainContext {
    /// Runs callbacks on the global default main context (what `gtk_main`, `g_application_run` and a
    /// `g_main_loop_new(NULL, …)` loop run). Nothing runs while that loop is not running.
    public static var callbackExecutor: CallbackExecutor {
        .enqueuing { work in invoke(work) }
    }

    /// The closure a GLib source carries across the C boundary.
    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// `g_main_context_invoke` on the default context: run at once when the calling thread owns the
    /// context, else as an idle source of default priority, in the order given.
    static func invoke(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        g_main_context_invoke_full(
            nil, 0,
            { data in
                guard let data else { return 0 }
                Unmanaged<Work>.fromOpaque(data).takeRetainedValue().body()
                return 0  // G_SOURCE_REMOVE
            }, work, nil)
    }
}
