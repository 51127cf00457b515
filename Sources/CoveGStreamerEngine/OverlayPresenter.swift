import CCoveGst
import CGStreamer
import CoveCore
import Foundation
import Synchronization

/// Draws an app's `VideoOverlay` (a player view's controls) on this pipeline's picture.
///
/// Two paths, one picture: while frames flow, a probe on the video sink's input blends the latest image
/// into each frame (C, on the streaming thread; the controls move with the video and never flicker
/// against it). While they do not — paused, seeking paused, before the first frame, audio without video
/// — the sink shows nothing new, so a changed image is presented into the window here: the sink's last
/// frame with the old image taken off again (the probe kept the pixels it covered) and the new one
/// blended in, or the backdrop on black when no frame was shown. Presentations run on one queue.
final class OverlayPresenter: @unchecked Sendable {
    // @unchecked: `native` is a C object with its own lock; `window` and `sinkPad` are fixed at init;
    // the rest is in `state`.
    private let overlay: VideoOverlay
    private let native: OpaquePointer
    private let sink: ElementRef
    private let sinkPad: UnsafeMutablePointer<GstPad>?
    private let window: Window?
    private let queue = DispatchQueue(label: "cove-overlay-present")
    /// Guards the probe id, the window size and the observation (set from the window watch, read on the queue).
    private let state = Mutex(State())

    /// The X11 window the picture shows in, and the connection presentations draw through (the outputs'
    /// own; XCB connections are thread-safe).
    struct Window: @unchecked Sendable {
        let connection: UnsafeMutableRawPointer
        let id: UInt32
    }

    private struct State {
        var probe: gulong = 0
        var windowSize: OverlayImage.Size?
        var observation: VideoOverlay.Observation?
        var closed = false
    }

    /// How long without a frame before the sink is taken to show nothing new (the slowest frame rate
    /// Cove's streams use is well above 5 a second).
    private static let framesStopAfter = Duration.milliseconds(200)

    /// `sink` is the element showing (or taking) the frames; the probe goes on its input.
    init(overlay: VideoOverlay, sink: ElementRef, window: Window?) {
        self.overlay = overlay
        self.sink = sink
        self.window = window
        sinkPad = gst_element_get_static_pad(sink.pointer, "sink")
        let context = Unmanaged.passUnretained(overlay).toOpaque()
        native = cove_ui_overlay_new(onFrameSize, context)
        gst_object_ref(sink.object)
        apply(overlay.current.image)
        if let sinkPad { state.withLock { $0.probe = cove_ui_overlay_attach(native, sinkPad) } }
        let observation = overlay.observe { [weak self] change in self?.handle(change) }
        state.withLock { $0.observation = observation }
    }

    deinit {
        if let sinkPad { gst_object_unref(UnsafeMutableRawPointer(sinkPad)) }
        gst_object_unref(sink.object)
        cove_ui_overlay_free(native)
    }

    /// The window's size changed (the outputs' window watch): the canvas while no frame is shown.
    func windowResized(width: Int, height: Int) {
        let size = OverlayImage.Size(width: width, height: height)
        let changed = state.withLock { s -> Bool in
            defer { s.windowSize = size }
            return s.windowSize != size
        }
        guard changed else { return }
        if cove_ui_overlay_frame_count(native) == 0 { overlay.engineRendersFrames(of: size) }
        present(full: true)
    }

    /// Stops blending and presenting; waits for a presentation in progress. The outputs call it before
    /// they close the X connection presentations draw through.
    func close() {
        let (probe, observation) = state.withLock { s -> (gulong, VideoOverlay.Observation?) in
            s.closed = true
            defer {
                s.probe = 0
                s.observation = nil
            }
            return (s.probe, s.observation)
        }
        observation?.cancel()
        if let sinkPad, probe != 0 { cove_ui_overlay_detach(native, sinkPad, probe) }
        // After the last presentation, while the outputs' connection is still open.
        queue.sync { cove_ui_overlay_release_window(native) }
    }

    private func handle(_ change: VideoOverlay.Change) {
        switch change {
        case .image:
            apply(overlay.current.image)
            if framesFlow {
                // The next frame carries it — unless the frames have just stopped (a pause right before
                // this change): then it is presented once it is clear no frame came.
                let changed = g_get_monotonic_time()
                queue.asyncAfter(deadline: .now() + .milliseconds(Int(Self.framesStopAfter.components.attoseconds / 1_000_000_000_000_000) + 50)) {
                    [weak self] in
                    guard let self, cove_ui_overlay_last_frame_time(self.native) < changed else { return }
                    self.present(full: false)
                }
            } else {
                present(full: false)
            }
        case .needsDisplay:
            present(full: true)
        case .frameSize:
            break
        }
    }

    /// Hands the image's pixels to the C side (copied there).
    private func apply(_ image: OverlayImage?) {
        let canvas = image?.canvas
        func set(_ layer: OverlayImage.Layer?, _ setter: (UnsafePointer<guint8>?, gint, gint, gint, gint, gint, gint, gint) -> Void) {
            guard let layer, let canvas else { return setter(nil, 0, 0, 0, 0, 0, 0, 0) }
            layer.pixels.withUnsafeBufferPointer { bytes in
                setter(
                    bytes.baseAddress, gint(layer.bytesPerRow), gint(layer.x), gint(layer.y), gint(layer.width), gint(layer.height), gint(canvas.width),
                    gint(canvas.height))
            }
        }
        set(image?.backdrop) { cove_ui_overlay_set_backdrop(native, $0, $1, $2, $3, $4, $5, $6, $7) }
        set(image?.layer) { cove_ui_overlay_set_layer(native, $0, $1, $2, $3, $4, $5, $6, $7) }
    }

    /// Whether a frame reached the sink lately: then the next one carries the new image.
    private var framesFlow: Bool {
        let last = cove_ui_overlay_last_frame_time(native)
        guard last > 0 else { return false }
        return Duration.microseconds(Int64(g_get_monotonic_time() - last)) < Self.framesStopAfter
    }

    private func present(full: Bool) {
        guard let window else { return }
        queue.async { [self] in
            guard let size = state.withLock({ $0.closed ? nil : $0.windowSize }) else { return }
            _ = cove_ui_overlay_present(native, window.connection, window.id, gint(size.width), gint(size.height), sink.pointer, full ? 1 : 0)
        }
    }
}

/// The probe saw frames of a new size: the view draws its next image at that size.
private let onFrameSize: CoveUIFrameSizeCallback = { width, height, context in
    guard let context else { return }
    Unmanaged<VideoOverlay>.fromOpaque(context).takeUnretainedValue().engineRendersFrames(of: OverlayImage.Size(width: Int(width), height: Int(height)))
}
