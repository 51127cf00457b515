import CCoveGst
import CGStreamer
import CoveCore
import Synchronization

/// Process-wide GStreamer initialisation: `gst_init` runs once, and its failure is remembered so every
/// later player gets the same clear error instead of a crash.
enum GStreamerRuntime {
    private static let state = Mutex<Result<Void, PlaybackError>?>(nil)

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

    /// Names of GStreamer elements Cove needs, for a precise error when a plugin package is missing.
    static let requiredElements: [(element: String, package: String)] = [
        ("playbin3", "gstreamer1.0-plugins-base"),
        ("hlsdemux2", "gstreamer1.0-plugins-good"),
        ("tsdemux", "gstreamer1.0-plugins-bad"),
        ("h264parse", "gstreamer1.0-plugins-bad"),
        ("avdec_h264", "gstreamer1.0-libav"),
        ("avdec_aac", "gstreamer1.0-libav"),
        ("souphttpsrc", "gstreamer1.0-plugins-good"),
        ("scaletempo", "gstreamer1.0-plugins-good"),
        ("fakesink", "libgstreamer1.0-0"),
        ("pngenc", "gstreamer1.0-plugins-good"),
    ]

    /// Elements that are missing from this installation, with the Debian package that provides each.
    static func missingElements() -> [(element: String, package: String)] {
        requiredElements.filter { gst_element_factory_find($0.element) == nil }
    }
}
