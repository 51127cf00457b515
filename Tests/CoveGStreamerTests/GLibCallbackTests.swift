import CGStreamer
import CoveCore
import CoveGStreamer
import CoveTesting
import Foundation
import Synchronization
import Testing

extension RealEngineTests {
    /// The seed's "delegates are called on the main thread" for a GLib app: with
    /// `GLibMainContext.callbackExecutor`, a real-engine controller's delegate and consumers run on the
    /// thread running the default main context (as `gtk_main` would), in the events' order.
    @Suite("Callbacks on the GLib main context")
    struct GLibCallbackTests {
        /// A thread running a `GMainLoop` on the default main context, like a GTK app's main thread.
        final class MainLoopThread: @unchecked Sendable {
            // Written once by the loop's thread before `started` is signalled; read after.
            private let thread = Mutex<pthread_t?>(nil)
            private let loop: OpaquePointer
            private let started = DispatchSemaphore(value: 0)

            init() {
                loop = g_main_loop_new(nil, 0)
                Thread.detachNewThread { [self] in
                    thread.withLock { $0 = pthread_self() }
                    g_main_context_invoke_full(
                        nil, 0,
                        { data in
                            Unmanaged<MainLoopThread>.fromOpaque(data!).takeUnretainedValue().started.signal()
                            return 0
                        }, Unmanaged.passUnretained(self).toOpaque(), nil)
                    g_main_loop_run(loop)
                }
                started.wait()
            }

            var isCurrent: Bool { thread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }

            func quit() {
                g_main_loop_quit(loop)
            }

            deinit { g_main_loop_unref(loop) }
        }

        @Test func delegateAndConsumersRunOnTheMainContextsThread() async throws {
            let h = try await Harness.start()
            defer { Task { await h.stop() } }
            let main = MainLoopThread()
            defer { main.quit() }
            let delegate = CallbackPlaceRecorder { main.isCurrent }
            var configuration = PlaybackControllerConfiguration(pacing: .unsynchronized, logger: h.logs.logger(level: .debug))
            configuration.callbackExecutor = GLibMainContext.callbackExecutor
            let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine(), configuration: configuration)
            controller.delegate = delegate
            controller.addSessionConsumer(delegate)
            controller.isAutoPlay = true
            let recorder = EventRecorder(controller)
            controller.setVideos([h.video(.ladder)])
            _ = try await recorder.waitFor { $0.lifecycleEvent?.kind == .play }
            await delegate.waitFor("Play")
            #expect(delegate.misplaced == 0, "every callback ran on the main context's thread")
            #expect(Array(recorder.lifecycleNames.prefix(delegate.names.count)) == delegate.names)
            #expect(delegate.consumerNames.prefix(delegate.names.count) == delegate.names.prefix(delegate.consumerNames.count))
            controller.shutdown()
        }
    }
}
