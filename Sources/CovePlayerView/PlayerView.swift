import CoveCore
import CovePlayerControls
import CovePlayerUI
import Foundation
import Synchronization

/// The seed's `BCOVPUIPlayerView` for Linux: the video with the PlayerUI drawn on it — the supplied VOD,
/// live, DVR and audio layouts or the app's own, play/pause, jump back, the times, the progress bar with
/// what is buffered and where the ad breaks are, thumbnail previews while scrubbing, the captions-and-audio
/// and bitrate menus, live and "go to live", volume, full screen, the ad controls (ad n of m, skip when
/// allowed, Learn More), the bumper's bar, the poster, captions — in a window of its own, inside the
/// app's window, or on the frames handed to the app.
///
/// ```swift
/// let view = try PlayerView(configuration: PlayerViewConfiguration(imageCodec: GStreamerImageCodec()))
/// let controller = PlayerSDKManager.shared.makePlaybackController(
///     engine: GStreamerEngine(), configuration: view.controllerConfiguration(PlaybackControllerConfiguration(audioOutput: .system)))
/// view.attach(controller)
/// controller.setVideos([video])
/// ```
///
/// The controls are painted with cairo and Pango into the engine's `VideoOverlay` (the engine blends them
/// into each frame, and presents them itself while frames do not flow); pointer and keys are hit-tested
/// against what was painted. Keys: arrows move a focus ring through the controls (left/right seek while
/// the controls are hidden), Enter presses, Back/Escape closes a menu or leaves full screen, space plays
/// and pauses, `f` full screen, `m` mute, `c` captions, `b` bitrate, `j` jump back, media keys.
///
/// Every method returns at once and is safe from any thread; one task handles the controller's events,
/// the window's input and the timers in order.
public final class PlayerView: Sendable {
    public let configuration: PlayerViewConfiguration
    /// The picture the controls are painted into: give it to the controller (`controllerConfiguration`).
    public let overlay: VideoOverlay
    private let window: PlayerWindow?
    /// Frame sizes the engine reports (the picture is drawn at that size).
    private let frameSizes: VideoOverlay.Observation
    private let loop: ViewLoop
    private let inputs: AsyncStream<ViewInput>.Continuation
    private let task: Mutex<Task<Void, Never>?>
    private let eventStream: (stream: AsyncStream<PlayerViewEvent>, continuation: AsyncStream<PlayerViewEvent>.Continuation)

    /// Opens the window (for `.window` and `.inWindow` placements). Throws `outputUnavailable` when the
    /// display or the app's window cannot be reached.
    public init(configuration: PlayerViewConfiguration = PlayerViewConfiguration()) throws(PlaybackError) {
        self.configuration = configuration
        let overlay = VideoOverlay()
        self.overlay = overlay
        switch configuration.placement {
        case .window(let title, let width, let height):
            guard width > 0, height > 0 else {
                throw PlaybackError(.invalidArgument, "The player window's size \(width)×\(height) is not a size; give it a positive width and height")
            }
            window = try PlayerWindow(display: configuration.display, parent: 0, width: width, height: height, title: title)
        case .inWindow(let id):
            guard id > 0, id <= UInt(UInt32.max) else {
                throw PlaybackError(
                    .outputUnavailable, "The X11 window ID \(id) is not a window ID (1…\(UInt32.max)); pass the ID of a window your app created")
            }
            window = try PlayerWindow(display: configuration.display, parent: UInt32(id), width: 0, height: 0, title: "")
        case .frames, .waylandWindow:
            window = nil
        }
        eventStream = AsyncStream.makeStream(of: PlayerViewEvent.self, bufferingPolicy: .bufferingNewest(64))
        let (stream, continuation) = AsyncStream.makeStream(of: ViewInput.self, bufferingPolicy: .unbounded)
        inputs = continuation
        loop = ViewLoop(
            configuration: configuration, overlay: overlay, window: window, size: window?.size, send: { [continuation] in continuation.yield($0) },
            emit: { [eventStream] in eventStream.continuation.yield($0) })
        let loop = self.loop
        task = Mutex(
            Task {
                for await input in stream { await loop.handle(input) }
            })
        let send = continuation
        frameSizes = overlay.observe { change in
            if case .frameSize(let size) = change { send.yield(.frameSize(size)) }
        }
        window?.startReading { [continuation] event in continuation.yield(.window(event)) }
    }

    deinit { close() }

    /// What the view tells the app: close requests, full screen, its own controls pressed.
    public var events: AsyncStream<PlayerViewEvent> { eventStream.stream }

    /// Where the engine draws the picture: the view's window, or the app's frames.
    public var videoOutput: VideoOutput {
        if let window { return .x11Window(id: UInt(window.id), display: configuration.display) }
        switch configuration.placement {
        case .frames(let receiver): return .frames(receiver)
        case .waylandWindow: return .wayland(display: configuration.display)
        case .window, .inWindow: return .headless
        }
    }

    /// `base` with this view's video output and overlay (captions are drawn by the view, above its bars).
    public func controllerConfiguration(_ base: PlaybackControllerConfiguration = PlaybackControllerConfiguration()) -> PlaybackControllerConfiguration {
        var configuration = base
        configuration.videoOutput = videoOutput
        configuration.videoOverlay = overlay
        configuration.captionsOnPicture = false
        return configuration
    }

    /// Shows `controller`'s sessions with the controls (the seed's `initWithPlaybackController:`). The
    /// controller should be configured with `controllerConfiguration(_:)`.
    public func attach(_ controller: PlaybackController) {
        let events = controller.events
        inputs.yield(.attach(controller))
        let send = inputs
        Task {
            for await event in events { send.yield(.event(event)) }
        }
    }

    /// The app's own layout, now (the seed's `controlsView.layout = …`); nil returns to the supplied one.
    public func setLayout(_ layout: ControlLayout?) {
        inputs.yield(.setLayout(layout))
    }

    /// Input the app forwards (frames placement, or its own toolkit's events).
    public func handle(_ input: PlayerViewInput) {
        inputs.yield(.app(input))
    }

    /// Enters or leaves full screen (the view's own window; elsewhere the app is asked with
    /// `fullscreenRequested`).
    public func setFullscreen(_ fullscreen: Bool) {
        inputs.yield(.setFullscreen(fullscreen))
    }

    /// Whether the view's own window is full screen (its `_NET_WM_STATE`).
    public var isFullscreen: Bool { window?.isFullscreen ?? false }

    /// The view's X11 window (its own, or the child it made in the app's window).
    public var windowID: UInt? { window.map { UInt($0.id) } }

    /// Where each control was last drawn, in picture pixels (what clicks are tested against).
    public var hitRegions: [HitRegion] { loop.painted.withLock { $0.regions } }

    /// The control (or menu row) the keyboard focus ring is on, as last drawn; nil when no ring is shown.
    public var focusedTarget: HitTarget? { loop.painted.withLock { $0.focus } }

    /// The menu drawn open (captions and audio, or bitrate), with its rows in `hitRegions` as `.menuItem(n)`.
    public var openMenu: ControlMenu? { loop.painted.withLock { $0.menu } }

    /// The scrubbing preview drawn above the progress bar (the pointer over it, or Enter on it from the
    /// keyboard): where a seek would land, with its thumbnail once loaded.
    public var scrubbingPreview: ViewScene.Preview? { loop.painted.withLock { $0.preview } }

    /// Whether the controls were drawn in the last picture (they hide after `hideControlsInterval`).
    public var areControlsShown: Bool { loop.painted.withLock { $0.controlsShown } }

    /// Waits until every input given so far has been handled and drawn.
    public func settle() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            inputs.yield(.barrier({ done.resume() }))
        }
    }

    /// Closes the window and stops (the controller is the app's to shut down).
    public func close() {
        inputs.yield(.close)
        inputs.finish()
        frameSizes.cancel()
        window?.close()
        eventStream.continuation.finish()
    }
}
