/// Where a controller calls its delegate, its session consumers and its completion handlers.
///
/// The seed calls them on the main thread, so UIKit code in them is safe. On Linux "the main thread"
/// depends on the toolkit: a Swift program's main actor, a GTK or GStreamer app's GLib main context
/// (`GLibMainContext.callbackExecutor` in `CoveGStreamer`), a Qt event loop. The controller hands each
/// callback to the executor and waits until it has run before handing over the next, so callbacks keep
/// the order of the events on any executor; the `events` stream is not affected by the choice.
///
/// A callback executor whose loop is not running holds the callbacks (not the controller, nor its
/// `events`) until it runs.
public struct CallbackExecutor: Sendable {
    private let run: @Sendable (@escaping @Sendable () -> Void) async -> Void

    /// An executor that runs each callback through `enqueue`, a function that schedules a closure
    /// on the app's loop (Qt's `QMetaObject::invokeMethod`, GLib's `g_main_context_invoke`, a
    /// dispatch queue). `enqueue` must run every closure it is given exactly once, in order.
    public static func enqueuing(_ enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) -> CallbackExecutor {
        CallbackExecutor { work in
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                enqueue {
                    work()
                    done.resume()
                }
            }
        }
    }

    /// The controller's own delivery task, off every app thread (the default; what Cove did before the
    /// choice existed). Callbacks must not block it for long: later callbacks wait.
    public static let deliveryTask = CallbackExecutor { work in work() }

    /// The main actor, as the seed's main thread: for Swift programs whose main thread runs the main
    /// actor (an `async` `main`, or `dispatchMain()`).
    public static let mainActor = CallbackExecutor { work in await MainActor.run { work() } }

    private init(run: @escaping @Sendable (@escaping @Sendable () -> Void) async -> Void) {
        self.run = run
    }

    /// Runs `work` on the executor and returns once it has run.
    func perform(_ work: @escaping @Sendable () -> Void) async {
        await run(work)
    }
}
