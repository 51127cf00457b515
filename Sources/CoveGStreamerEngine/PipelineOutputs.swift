import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Logging
import Synchronization

/// The ends of a pipeline an app sees: the video and audio sinks for the outputs it chose, the window it
/// embedded the picture into, the frames and samples handed to it, captions drawn on the picture.
///
/// Kept apart from `GStreamerPipeline` (which runs playback) because none of it changes how media is
/// fetched or timed: each output is a sink bin playbin3 is given, plus the threads that serve it.
final class PipelineOutputs: @unchecked Sendable {
    let videoSink: ElementRef
    let audioSink: ElementRef
    /// The `textoverlay` inside the video sink bin (with `captionsOnPicture`).
    private let captionOverlay: ElementRef?
    /// The element that shows (or takes) the video frames: its base-sink statistics count them.
    private let frameSink: ElementRef?
    /// The embedded window's output: the caps filter that scales to the window, and the window.
    private let embedding: Embedding?
    /// The app's `VideoOverlay` (a player view's controls) on the picture, when it asked for one.
    private let overlayPresenter: OverlayPresenter?
    private let configuration: EnginePlayerConfiguration
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var closed = false
        var windowTimer: WindowTimer?
        var windowSize: (width: Int32, height: Int32)?
        var windowGone = false
        var shownCaptions: [TextCue] = []
        var frames = FrameTally()
    }

    /// The window watch's timer (cancelled at close; DispatchSource is thread-safe).
    private struct WindowTimer: @unchecked Sendable {
        let source: DispatchSourceTimer
    }

    private struct Embedding: @unchecked Sendable {
        let scaler: ElementRef
        let sink: ElementRef
        let connection: UnsafeMutableRawPointer
        let window: UInt32
        let display: String
    }

    init(configuration: EnginePlayerConfiguration, logger: Logger) throws(PlaybackError) {
        self.configuration = configuration
        self.logger = logger
        let sync = configuration.pacing == .realTime
        let captions = configuration.captionsOnPicture
        videoSink = try Self.makeBin(Self.videoDescription(configuration.videoOutput, sync: sync, captions: captions), what: "video output")
        do {
            audioSink = try Self.makeBin(Self.audioDescription(configuration.audioOutput, sync: sync), what: "audio output")
        } catch {
            gst_object_unref(videoSink.object)
            throw error
        }
        captionOverlay = captions ? gst_bin_get_by_name(videoSink.bin, "cove-captions").map { ElementRef(pointer: $0) } : nil
        frameSink = gst_bin_get_by_name(videoSink.bin, "cove-video-sink").map { ElementRef(pointer: $0) }
        do {
            embedding = try Self.embed(configuration.videoOutput, in: videoSink)
        } catch {
            if let captionOverlay { gst_object_unref(captionOverlay.object) }
            if let frameSink { gst_object_unref(frameSink.object) }
            gst_object_unref(videoSink.object)
            gst_object_unref(audioSink.object)
            throw error
        }
        overlayPresenter = Self.makeOverlayPresenter(configuration, sink: frameSink, embedding: embedding)
        if let embedding, let overlayPresenter {
            var width: gint = 0
            var height: gint = 0
            if cove_xcb_window_size(embedding.connection, embedding.window, &width, &height) != 0 {
                overlayPresenter.windowResized(width: Int(width), height: Int(height))
            }
        }
    }

    /// The overlay goes on the element that shows or takes the frames — unless the app takes frames
    /// without it (`VideoFrameReceiver.includesOverlay`).
    private static func makeOverlayPresenter(_ configuration: EnginePlayerConfiguration, sink: ElementRef?, embedding: Embedding?) -> OverlayPresenter? {
        guard let overlay = configuration.videoOverlay, let sink else { return nil }
        if case .frames(let receiver) = configuration.videoOutput, !receiver.includesOverlay { return nil }
        return OverlayPresenter(overlay: overlay, sink: sink, window: embedding.map { OverlayPresenter.Window(connection: $0.connection, id: $0.window) })
    }

    /// Frames the video output rendered and dropped (late, under QoS) since the pipeline started, nil when
    /// it keeps no count. The sink's own counts start again at every flush (a seek, a rate change): each
    /// read folds them into a running tally, and the pipeline reads right before it flushes and at the end.
    @discardableResult
    func observeFrames() -> FrameTally.Counts? {
        guard let frameSink else { return nil }
        var rendered: guint64 = 0
        var dropped: guint64 = 0
        guard cove_sink_frame_counts(frameSink.object, &rendered, &dropped) != 0 else { return nil }
        return state.withLock { $0.frames.observe(FrameTally.Counts(rendered: Int(clamping: rendered), dropped: Int(clamping: dropped))) }
    }

    deinit {
        if let captionOverlay { gst_object_unref(captionOverlay.object) }
        if let frameSink { gst_object_unref(frameSink.object) }
        // Presentations draw through the embedding's connection: they end before it closes.
        overlayPresenter?.close()
        if let embedding {
            cove_x_unregister_window(embedding.window)
            gst_object_unref(embedding.scaler.object)
            gst_object_unref(embedding.sink.object)
            cove_xcb_disconnect(embedding.connection)
        }
        gst_object_unref(videoSink.object)
        gst_object_unref(audioSink.object)
    }

    // MARK: Sink descriptions

    /// The text overlay draws the selected track's cues (set by `showCaptions`) onto each frame; with no
    /// text it passes frames through untouched.
    private static let overlay =
        "textoverlay name=cove-captions wait-text=false silent=true font-desc=\"Sans 20\" shaded-background=true valignment=bottom halignment=center line-alignment=center ! "

    static func videoDescription(_ output: VideoOutput, sync: Bool, captions: Bool) -> String {
        // Captions first, then the shutter over them (the app's overlay is drawn at the sink, above both).
        let overlay = (captions ? Self.overlay : "") + PictureShutter.description
        switch output {
        case .headless:
            // The caps filter forces decoding: fakesink accepts anything, and without it the
            // pipeline could link compressed video straight to the sink.
            return "capsfilter caps=video/x-raw ! \(overlay)fakesink name=cove-video-sink sync=\(sync) enable-last-sample=true signal-handoffs=true"
        case .x11(let display):
            let converter = captions ? "\(overlay)videoconvert ! " : overlay
            return "\(converter)ximagesink name=cove-video-sink sync=\(sync) force-aspect-ratio=true\(Self.displayProperty(display))"
        case .x11Window(_, let display):
            // ximagesink does not scale: videoscale does, to the size the caps filter says (the window's,
            // updated as it changes), adding borders to keep the picture's aspect ratio.
            return
                "\(overlay)videoconvert ! videoscale ! capsfilter name=cove-window-size caps=video/x-raw ! ximagesink name=cove-video-sink sync=\(sync) force-aspect-ratio=true handle-events=false\(Self.displayProperty(display))"
        case .wayland(let display):
            // waylandsink makes its own toplevel surface, of the picture's size.
            let socket = display.map { " display=\"\($0.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." || $0 == "/" })\"" } ?? ""
            return "\(overlay)videoconvert ! waylandsink name=cove-video-sink sync=\(sync)\(socket)"
        case .frames(let receiver):
            // One frame waits at most: a handler slower than the frame rate gets the newest frame, the
            // others are dropped there, and nothing upstream (audio included) ever waits for the app.
            let format = receiver.format == .rgba ? "RGBA" : "I420"
            return
                "\(overlay)videoconvert ! capsfilter caps=video/x-raw,format=\(format) ! appsink name=cove-video-sink sync=\(sync) max-buffers=1 drop=true emit-signals=false"
        }
    }

    static func audioDescription(_ output: AudioOutput, sync: Bool) -> String {
        switch output {
        case .discard:
            return "capsfilter caps=audio/x-raw ! fakesink name=cove-audio-sink sync=\(sync) signal-handoffs=true"
        case .system:
            return "autoaudiosink name=cove-audio-sink sync=\(sync)"
        case .device(let name):
            let quoted = name.filter { $0 != "\"" && $0 != "\\" && !$0.isNewline }
            return "pulsesink name=cove-audio-sink sync=\(sync) device=\"\(quoted)\""
        case .samples:
            return
                "audioconvert ! audioresample ! capsfilter caps=audio/x-raw,format=F32LE,layout=interleaved ! appsink name=cove-audio-sink sync=\(sync) max-buffers=16 drop=true emit-signals=false"
        }
    }

    private static func displayProperty(_ display: String?) -> String {
        display.map { " display=\"\($0.filter { $0.isLetter || $0.isNumber || $0 == ":" || $0 == "." })\"" } ?? ""
    }

    private static func makeBin(_ description: String, what: String) throws(PlaybackError) -> ElementRef {
        var message: UnsafeMutablePointer<CChar>?
        guard let bin = cove_bin_from_description(description, &message) else {
            let text = takeGString(message) ?? "unknown"
            throw PlaybackError(
                .engineFailure,
                "Could not build the \(what) (\(text)); install gstreamer1.0-plugins-base, gstreamer1.0-plugins-good and gstreamer1.0-x (`make deps`)",
                cause: .underlying(PlaybackError.UnderlyingError(domain: "gstreamer.parse-launch", message: description)))
        }
        gst_object_ref_sink(UnsafeMutableRawPointer(bin))
        return ElementRef(pointer: bin)
    }

    /// For an app's window: checks that it exists, hands its ID to the sink and sizes the picture to it.
    private static func embed(_ output: VideoOutput, in bin: ElementRef) throws(PlaybackError) -> Embedding? {
        guard case .x11Window(let id, let display) = output else { return nil }
        let displayName = display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard id > 0, id <= UInt(UInt32.max) else {
            throw PlaybackError(.outputUnavailable, "The X11 window ID \(id) is not a window ID (1…\(UInt32.max)); pass the ID of a window your app created")
        }
        guard let connection = cove_xcb_connect(display) else {
            throw PlaybackError(
                .outputUnavailable, "Cannot connect to the X11 display \"\(displayName)\" to embed the video; check that the X server runs and DISPLAY is right"
            )
        }
        var width: gint = 0
        var height: gint = 0
        guard cove_xcb_window_size(connection, UInt32(id), &width, &height) != 0 else {
            cove_xcb_disconnect(connection)
            throw PlaybackError(
                .outputUnavailable,
                "There is no X11 window 0x\(String(id, radix: 16)) on display \"\(displayName)\"; pass the ID of a window that exists (and is not destroyed before playback ends)"
            )
        }
        guard let scaler = gst_bin_get_by_name(bin.bin, "cove-window-size") else {
            cove_xcb_disconnect(connection)
            throw PlaybackError(.engineFailure, "The embedded video output lacks its scaler")
        }
        guard let sink = gst_bin_get_by_name(bin.bin, "cove-video-sink") else {
            gst_object_unref(UnsafeMutableRawPointer(scaler))
            cove_xcb_disconnect(connection)
            throw PlaybackError(.engineFailure, "The embedded video output lacks its sink")
        }
        let embedding = Embedding(
            scaler: ElementRef(pointer: scaler), sink: ElementRef(pointer: sink), connection: connection, window: UInt32(id), display: displayName)
        // The app may destroy its window before playback stops: the sink's drawing errors about it must
        // not end the process (Xlib's default handler exits). Unregistered in deinit.
        cove_install_x_error_handler()
        cove_x_register_window(UInt32(id))
        _ = cove_set_window_handle(sink, guintptr(id))
        setScale(embedding, width: width, height: height)
        return embedding
    }

    private static func setScale(_ embedding: Embedding, width: Int32, height: Int32) {
        guard width > 0, height > 0 else { return }
        cove_set_from_string(embedding.scaler.object, "caps", "video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1")
    }

    // MARK: Running

    /// Starts what serves the outputs while the pipeline lives: the frame and sample threads, the window
    /// watch. `decoderOffset` turns the pipeline's stream time into media time.
    func start(decoderOffset: @escaping @Sendable () -> Double) {
        var threads: [Thread] = []
        if case .frames(let receiver) = configuration.videoOutput, let sink = gst_bin_get_by_name(videoSink.bin, "cove-video-sink") {
            threads.append(
                puller(name: "cove-frames", sink: ElementRef(pointer: sink), deliversPreroll: true) { sample, last in
                    Self.deliverFrame(sample, to: receiver, decoderOffset: decoderOffset(), last: &last)
                })
        }
        if case .samples(let receiver) = configuration.audioOutput, let sink = gst_bin_get_by_name(audioSink.bin, "cove-audio-sink") {
            threads.append(
                puller(name: "cove-samples", sink: ElementRef(pointer: sink), deliversPreroll: false) { sample, _ in
                    Self.deliverSamples(sample, to: receiver, decoderOffset: decoderOffset())
                })
        }
        let started = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            if let embedding {
                let source = DispatchSource.makeTimerSource(queue: windowQueue)
                source.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
                source.setEventHandler { [weak self] in self?.followWindow(embedding) }
                s.windowTimer = WindowTimer(source: source)
            }
            return true
        }
        // Closed already: the threads see it at once and end (each releases its sink).
        for thread in threads { thread.start() }
        if started { state.withLock { $0.windowTimer }?.source.resume() }
    }

    /// The window watch's queue: `close()` waits on it for a resize in progress.
    private let windowQueue = DispatchQueue(label: "cove-window-watch")
    /// Wakes a puller that found its appsink stopped (it returns at once then) when the outputs close.
    private let closing = DispatchSemaphore(value: 0)

    /// A thread that pulls the appsink's samples until the outputs close. A stopped appsink (the pipeline
    /// not yet or no longer running, or at its end) answers at once with nothing: the thread then waits
    /// 50 ms, or until close, instead of spinning. Whenever nothing came, the sink's last sample is looked
    /// at, so the frame shown after a seek while paused reaches the app too (`deliversPreroll`; a frame
    /// already handed over — the same one coming again once playing — is not handed over twice).
    private func puller(name: String, sink: ElementRef, deliversPreroll: Bool, handle: @escaping @Sendable (OpaquePointer, inout Int?) -> Void) -> Thread {
        let closing = self.closing
        let thread = Thread { [weak self] in
            var last: Int?
            defer { gst_object_unref(sink.object) }
            while let self, !self.isClosed {
                let asked = ContinuousClock.now
                if let sample = cove_appsink_pull(sink.pointer, 100_000_000) {
                    handle(sample, &last)
                    gst_sample_unref(sample)
                    continue
                }
                if deliversPreroll, let preroll = cove_sink_last_sample(sink.pointer) {
                    handle(preroll, &last)
                    gst_sample_unref(preroll)
                }
                if ContinuousClock.now - asked < .milliseconds(50) {
                    _ = closing.wait(timeout: .now() + .milliseconds(50))
                }
            }
        }
        thread.name = name
        return thread
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    /// Hands one frame to the app. Frames presented since the last one and never handed over (the app
    /// was busy) are counted from the gap in presentation times at the stream's frame rate.
    private static func deliverFrame(_ sample: OpaquePointer, to receiver: VideoFrameReceiver, decoderOffset: Double, last: inout Int?) {
        var width: gint = 0
        var height: gint = 0
        var planeCount: gint = 0
        var time: gint64 = -1
        var fpsN: gint = 0
        var fpsD: gint = 1
        guard let mapped = cove_video_frame_map(sample, &width, &height, &planeCount, &time, &fpsN, &fpsD) else { return }
        // A preroll frame comes again from the stream once playing starts: hand it over once.
        if time >= 0, time == last {
            cove_video_frame_release(mapped)
            return
        }
        let handle = MappedFrame(pointer: mapped)
        var planes: [(layout: VideoFrame.Plane, bytes: UnsafeRawBufferPointer)] = []
        for index in 0..<planeCount {
            var stride: gint = 0
            var rows: gint = 0
            guard let base = cove_video_frame_plane(mapped, index, &stride, &rows) else { continue }
            planes.append((VideoFrame.Plane(stride: Int(stride), rows: Int(rows)), UnsafeRawBufferPointer(start: base, count: Int(stride) * Int(rows))))
        }
        var skipped = 0
        if time >= 0, let previous = last, fpsN > 0, fpsD > 0 {
            let frameNanoseconds = 1_000_000_000 * Double(fpsD) / Double(fpsN)
            let gap = Double(time - previous)
            // Within two seconds: further is a seek, not frames the app missed.
            if gap > frameNanoseconds * 1.5, gap < 2_000_000_000 { skipped = Int((gap / frameNanoseconds).rounded()) - 1 }
        }
        if time >= 0 { last = time }
        let media = mediaTime(streamTime: time, decoderOffset: decoderOffset)
        let frame = VideoFrame(
            width: Int(width), height: Int(height), format: receiver.format, presentationTime: media, planes: planes,
            release: { cove_video_frame_release(handle.pointer) }
        )
        receiver.deliver(frame, skipped: skipped)
    }

    private static func deliverSamples(_ sample: OpaquePointer, to receiver: AudioSampleReceiver, decoderOffset: Double) {
        var rate: gint = 0
        var channels: gint = 0
        var time: gint64 = -1
        var count: gsize = 0
        guard let copy = cove_audio_sample_copy(sample, &rate, &channels, &time, &count) else { return }
        defer { g_free(copy) }
        let samples = Array(UnsafeBufferPointer(start: copy, count: Int(count)))
        let media = mediaTime(streamTime: time, decoderOffset: decoderOffset)
        receiver.deliver(AudioSamples(presentationTime: media, sampleRate: Int(rate), channels: Int(channels), samples: samples))
    }

    /// A sample's stream time (ns, -1 when unknown) as media time: Cove's streaming places media
    /// `decoderOffset` seconds later on the pipeline's timeline.
    private static func mediaTime(streamTime: Int, decoderOffset: Double) -> MediaTime {
        guard streamTime >= 0 else { return .zero }
        return MediaTime(nanoseconds: Int64(max(streamTime - Int(decoderOffset * 1_000_000_000), 0)))
    }

    private struct MappedFrame: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Rescales the picture when the app's window changed size, and redraws it.
    private func followWindow(_ embedding: Embedding) {
        var width: gint = 0
        var height: gint = 0
        guard cove_xcb_window_size(embedding.connection, embedding.window, &width, &height) != 0 else {
            let first = state.withLock { s -> Bool in
                defer { s.windowGone = true }
                return !s.windowGone
            }
            if first {
                logger.warning(
                    "the app's window for the video is gone; the picture is no longer shown", metadata: ["window": "0x\(String(embedding.window, radix: 16))"])
            }
            return
        }
        let changed = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            defer { s.windowSize = (width, height) }
            return s.windowSize.map { $0.width != width || $0.height != height } ?? true
        }
        guard changed else { return }
        logger.debug("embedded window resized", metadata: ["width": "\(width)", "height": "\(height)"])
        Self.setScale(embedding, width: width, height: height)
        cove_overlay_expose(embedding.sink.pointer)
        overlayPresenter?.windowResized(width: Int(width), height: Int(height))
    }

    // MARK: Commands

    /// Draws `cues` on the picture (their text, one cue per line), placed as the first cue's settings say.
    func showCaptions(_ cues: [TextCue]) {
        guard let overlay = captionOverlay else { return }
        let changed = state.withLock { s -> Bool in
            defer { s.shownCaptions = cues }
            return s.shownCaptions != cues
        }
        guard changed else { return }
        let text = cues.map(\.text).joined(separator: "\n")
        guard !text.isEmpty else {
            cove_set_bool(overlay.object, "silent", 1)
            cove_set_string(overlay.object, "text", "")
            return
        }
        let placement = CaptionPlacement(settings: cues.first?.settings ?? "")
        if let line = placement.line {
            cove_set_from_string(overlay.object, "valignment", "position")
            cove_set_double(overlay.object, "ypos", line)
        } else {
            cove_set_from_string(overlay.object, "valignment", "bottom")
        }
        let alignment =
            switch placement.alignment {
            case .start: "left"
            case .center: "center"
            case .end: "right"
            }
        if let position = placement.position {
            cove_set_from_string(overlay.object, "halignment", "position")
            cove_set_double(overlay.object, "xpos", position)
        } else {
            cove_set_from_string(overlay.object, "halignment", alignment)
        }
        cove_set_from_string(overlay.object, "line-alignment", alignment)
        // The overlay reads Pango markup: the cue's text is shown as text.
        cove_set_string(overlay.object, "text", Self.escapeMarkup(text))
        cove_set_bool(overlay.object, "silent", 0)
    }

    static func escapeMarkup(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A window sink that was given its window opened its X display right then, even in NULL, and
    /// closes it only on READY → NULL: cycles it through READY so the display is closed now.
    func releaseDisplay() {
        guard embedding != nil else { return }
        _ = gst_element_set_state(videoSink.pointer, GST_STATE_READY)
        _ = gst_element_set_state(videoSink.pointer, GST_STATE_NULL)
    }

    /// Stops the threads and the window watch; the sinks go with the pipeline.
    func close() {
        let timer = state.withLock { s -> WindowTimer? in
            s.closed = true
            defer { s.windowTimer = nil }
            return s.windowTimer
        }
        timer?.source.cancel()
        // A resize in progress finishes before the pipeline is torn down (cancel does not wait for it).
        windowQueue.sync {}
        overlayPresenter?.close()
        closing.signal()
        closing.signal()
    }
}
