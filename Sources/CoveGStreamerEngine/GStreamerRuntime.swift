import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// Process-wide GStreamer initialisation: `gst_init` runs once, and its failure is remembered so every
/// later player gets the same clear error instead of a crash.
enum GStreamerRuntime {
    private static let state = Mutex<Result<Void, PlaybackError>?>(nil)
    /// Factories of the elements pipelines created (see `GStreamerMediaEngine.elementsCreated`).
    static let elementsCreated = Mutex<[String: Int]>([:])
    /// Pipelines built and not yet torn down to NULL (see `GStreamerMediaEngine.livePipelineCount`).
    static let livePipelines = Mutex(0)

    static func ensureInitialized() throws(PlaybackError) {
        let result = state.withLock { current -> Result<Void, PlaybackError> in
            if let current { return current }
            var message: UnsafeMutablePointer<CChar>?
            let ok = cove_gst_init(&message)
            let result: Result<Void, PlaybackError>
            if ok != 0 {
                result = .success(())
            } else {
                let text = message.map { String(cString: $0) } ?? "unknown reason"
                g_free(message)
                result = .failure(PlaybackError(.engineFailure, "GStreamer could not initialise (\(text)); install the GStreamer runtime (`make deps`)"))
            }
            current = result
            return result
        }
        try result.get()
    }

    /// Plugins a first HLS or DASH play loads, in the order the pipeline needs them. GStreamer loads a
    /// plugin (a shared library) the first time one of its elements is made, inside the first play: cold,
    /// libav alone takes 70–400 ms on the benchmark machine. Loading them ahead moves that cost to launch,
    /// the way a browser has its media stack loaded before a page calls play().
    /// What Cove's own streaming plays through (appsrc into the plain demuxers and decoders). GStreamer's
    /// HTTP source (`soup`) is never loaded: every network byte, media files' included, comes through
    /// Cove's `HTTPTransport`.
    /// libav comes last: it alone takes ~70 ms of the ~85 (it registers an element type per FFmpeg codec),
    /// and GStreamer loads one plugin at a time, so a pipeline being built meanwhile finds every plugin
    /// of its skeleton already in.
    static let playbackPlugins = [
        "playback", "coreelements", "app", "audiofx", "videofilter", "videoconvertscale", "audioconvert", "volume",
        "audioresample", "typefindfunctions", "mpegtsdemux", "videoparsersbad", "audioparsers", "isomp4", "libav",
    ]

    private static let warmedUp = Mutex(false)
    /// A warm-up in progress, and who waits for it to finish (`waitWhileWarmingUp`).
    private static let warming = Mutex<(running: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Returns when a warm-up in progress has finished; at once when none is running (never started, or
    /// done). Cove's streaming waits here before a session's first request, so an app that started
    /// `warmUp()` at launch, without waiting for it, gets its first request out with the decoders in
    /// (the first request to first frame stays short) while everything before it overlapped the load.
    static func waitWhileWarmingUp() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = warming.withLock { w -> Bool in
                guard w.running else { return true }
                w.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Loads `playbackPlugins` once per process (blocking; missing plugins are skipped — a play that
    /// needs one reports it precisely). Safe to call from any thread and more than once.
    static func loadPlaybackPlugins() throws(PlaybackError) {
        try ensureInitialized()
        try warmedUp.withLock { done throws(PlaybackError) in
            guard !done else { return }
            warming.withLock { $0.running = true }
            for name in playbackPlugins {
                if let plugin = gst_plugin_load_by_name(name) { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
            }
            done = true
            let waiters = warming.withLock { w -> [CheckedContinuation<Void, Never>] in
                defer { w = (false, []) }
                return w.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    private static let backgroundWarmUp = Mutex(false)

    /// Starts `loadPlaybackPlugins` on a thread of its own, once per process: called when the first
    /// pipeline's skeleton exists (its own plugins loaded), so the rest — libav above all, 40–400 ms
    /// cold — loads while the first requests (playlists, the first segment) are on the wire instead of
    /// before them. GStreamer loads one plugin at a time under a process-wide lock: started any earlier,
    /// it would hold that lock while the first pipeline waits to be built.
    static func warmUpInBackground() {
        let first = backgroundWarmUp.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        guard first, !warmedUp.withLock({ $0 }) else { return }
        let thread = Thread { try? loadPlaybackPlugins() }
        thread.name = "cove-gst-warm-up"
        thread.start()
    }

    /// Names of GStreamer elements Cove needs, for a precise error when a plugin package is missing.
    static let requiredElements: [(element: String, package: String)] = [
        ("playbin3", "gstreamer1.0-plugins-base"),
        ("appsrc", "gstreamer1.0-plugins-base"),
        ("tsdemux", "gstreamer1.0-plugins-bad"),
        ("qtdemux", "gstreamer1.0-plugins-good"),
        ("h264parse", "gstreamer1.0-plugins-bad"),
        ("avdec_h264", "gstreamer1.0-libav"),
        ("avdec_aac", "gstreamer1.0-libav"),
        ("scaletempo", "gstreamer1.0-plugins-good"),
        ("videobalance", "gstreamer1.0-plugins-good"),
        ("pitch", "gstreamer1.0-plugins-bad"),
        ("fakesink", "libgstreamer1.0-0"),
        ("pngenc", "gstreamer1.0-plugins-good"),
    ]

    /// Elements that are missing from this installation, with the Debian package that provides each.
    static func missingElements() -> [(element: String, package: String)] {
        requiredElements.filter { gst_element_factory_find($0.element) == nil }
    }
}
