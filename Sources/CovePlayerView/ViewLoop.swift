import CoveCore
import CovePlayerControls
import CovePlayerUI
import Foundation
import Synchronization

/// What the view's loop handles, in order.
enum ViewInput: Sendable {
    case attach(PlaybackController)
    case event(PlaybackEvent)
    case window(WindowEvent)
    case app(PlayerViewInput)
    case tick
    case frameSize(OverlayImage.Size)
    case thumbnail(Duration, RGBAImage?)
    case poster(URL, RGBAImage?)
    case setLayout(ControlLayout?)
    case setFullscreen(Bool)
    case barrier(@Sendable () -> Void)
    case close
}

/// The view's single loop (mpv's model, as the controller's): the controller's events, the window's
/// input, the app's calls and a redraw tick come in one at a time; after each, the scene is painted and
/// handed to the overlay if it changed.
actor ViewLoop {
    let configuration: PlayerViewConfiguration
    let overlay: VideoOverlay
    let window: PlayerWindow?
    let painter = ScenePainter()
    let images: ViewImages
    let send: @Sendable (ViewInput) -> Void
    let emit: @Sendable (PlayerViewEvent) -> Void

    var controller: PlaybackController?
    var actions: ControlActions?
    var controls = PlayerControlsState()
    var appLayout: ControlLayout?
    var size: OverlayImage.Size?
    var visibility: ControlsVisibility
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    var menu: ControlMenu?
    /// The control that opened the menu (the focus returns there when it closes).
    var menuOpener: HitTarget?
    var focus: HitTarget?
    var hover: HitTarget?
    var preview: ViewScene.Preview?
    /// The preview was opened from the keyboard (Enter on the progress bar): Enter seeks, Back cancels.
    var scrubbingByKeyboard = false
    var thumbnailWanted: Duration?
    var message: (text: String, until: Duration)?
    var poster: (url: URL, image: RGBAImage?)?
    var bufferedFraction: Double?
    var isFullscreen = false
    var lastPress: (at: Duration, x: Double, y: Double)?
    var regions: [HitRegion] = []
    /// What was last handed to the overlay (an identical picture is not handed over again).
    var shown: OverlayImage?
    /// The scene last painted: the same scene is not painted again (the tick comes four times a second).
    var paintedScene: ViewScene?
    var tickTask: Task<Void, Never>?
    var closed = false
    /// What was last painted, readable from any thread (`PlayerView.hitRegions`, `focusedTarget`, `areControlsShown`).
    nonisolated let painted = Mutex<PaintedState>(PaintedState())

    struct PaintedState: Sendable {
        var regions: [HitRegion] = []
        var focus: HitTarget?
        var controlsShown = false
        var menu: ControlMenu?
        var preview: ViewScene.Preview?
    }

    init(
        configuration: PlayerViewConfiguration, overlay: VideoOverlay, window: PlayerWindow?, size: OverlayImage.Size?,
        send: @escaping @Sendable (ViewInput) -> Void, emit: @escaping @Sendable (PlayerViewEvent) -> Void
    ) {
        self.configuration = configuration
        self.overlay = overlay
        self.window = window
        self.size = size
        self.send = send
        self.emit = emit
        self.appLayout = configuration.layout
        self.images = ViewImages(codec: configuration.imageCodec, transport: configuration.transport)
        self.visibility = ControlsVisibility(options: configuration.options)
        self.start = clock.now
    }

    var now: Duration { clock.now - start }
    var localizer: Localizer { configuration.localizer }
    var options: PlayerUIOptions { configuration.options }

    func handle(_ input: ViewInput) {
        guard !closed else {
            if case .barrier(let done) = input { done() }
            return
        }
        switch input {
        case .attach(let controller):
            attach(controller)
        case .event(let event):
            handle(event)
        case .window(let event):
            handle(event)
        case .app(let input):
            handle(input)
        case .tick:
            refreshBuffered()
            if let message, message.until <= now { self.message = nil }
        case .frameSize(let size):
            // Frames handed to the app: the picture is theirs; a window: its own size rules (see `.resized`).
            if window == nil { self.size = size }
        case .thumbnail(let time, let image):
            if var preview, abs((preview.time - time) / .seconds(1)) < 1.5 {
                preview.thumbnail = image
                self.preview = preview
            }
        case .poster(let url, let image):
            if poster?.url == url { poster = (url, image) }
        case .setLayout(let layout):
            appLayout = layout
        case .setFullscreen(let fullscreen):
            setFullscreen(fullscreen)
        case .barrier(let done):
            redraw()
            done()
            return
        case .close:
            closed = true
            tickTask?.cancel()
            overlay.show(nil)
            return
        }
        redraw()
    }

    private func attach(_ controller: PlaybackController) {
        self.controller = controller
        actions = ControlActions(controller: controller, options: options, localizer: localizer)
        // The app's bitrate menu starts on its initial selection (the seed's `indexOfInitialSelection`).
        if let menu = options.bitrateMenu, menu.options.indices.contains(menu.initialSelection), !menu.options[menu.initialSelection].isAutomatic {
            controller.setPreferredPeakBitRate(menu.options[menu.initialSelection].bitrate)
        }
        tickTask?.cancel()
        let send = self.send
        let clock = self.clock
        tickTask = Task {
            while !Task.isCancelled {
                guard (try? await clock.sleep(for: .milliseconds(250))) != nil else { return }
                send(.tick)
            }
        }
    }

    // MARK: Controller events

    private func handle(_ event: PlaybackEvent) {
        controls.handle(event, playbackRate: controller?.playbackRate ?? 1)
        switch event {
        case .sessionAdvanced(let session):
            menu = nil
            preview = nil
            focus = focus.map { _ in FocusRing.initial(regions) } ?? nil
            bufferedFraction = nil
            loadPoster(for: session.video)
            if case .window(let title, _, _) = configuration.placement {
                window?.setTitle(session.video.name.map { "\($0) — \(title)" } ?? title)
            }
        case .lifecycle(_, .pause), .lifecycle(_, .end), .lifecycle(_, .fail):
            visibility.noteActivity(at: now)
        default:
            break
        }
    }

    private func loadPoster(for video: Video) {
        guard let url = video.poster ?? video.posterSources.first else {
            poster = nil
            return
        }
        if poster?.url == url { return }
        poster = (url, nil)
        let images = self.images
        let send = self.send
        Task {
            switch await images.poster(at: url) {
            case .success(let image): send(.poster(url, image))
            case .failure: send(.poster(url, nil))
            }
        }
    }

    private func refreshBuffered() {
        guard let session = controls.session, let status = session.player?.status, let ahead = status.bufferedAhead,
            let duration = controls.bar.duration, duration > .zero, !controls.isLive
        else {
            bufferedFraction = nil
            return
        }
        bufferedFraction = min(1, (controls.bar.position + ahead) / duration)
    }

    // MARK: Drawing

    /// The layout for what plays now, with the volume control added to the supplied layouts.
    private func currentLayout() -> ControlLayout {
        let hasBitrateMenu = options.bitrateMenu != nil || !(controls.session?.variants.variants.isEmpty ?? true)
        var layout = controls.layout(appLayout: appLayout, options: options, hasBitrateMenu: hasBitrateMenu)
        let supplied = appLayout == nil || options.automaticControlTypeSelection
        if supplied, configuration.showsVolumeControl, !layout.allTags.contains(.volume) {
            layout = layout.inserting(LayoutView(.volume), after: [.jumpBack, .playback])
        }
        return layout.sizedForText(localizer)
    }

    var controlsShown: Bool {
        visibility.isShown(at: now)
    }

    func redraw() {
        // A preview of where a seek would land means nothing once seeking is not possible (an ad began).
        if preview != nil, !scrubbingByKeyboard, !controls.canSeek { preview = nil }
        let pinned = ControlsVisibility.isPinned(controls.bar, status: controls.status, overlayOpen: menu != nil || preview != nil) || hover != nil
        visibility.setPinned(pinned, at: now)
        guard let size, size.width > 0, size.height > 0 else { return }
        let showPoster = controls.mediaType == .audio || !controls.hasShownFrame
        let scene = ViewScene(
            size: size, controls: controls, layout: currentLayout(), controlsShown: controlsShown, menu: menu, focus: focus, hover: hover,
            preview: preview, bufferedFraction: bufferedFraction, isFullscreen: isFullscreen, poster: showPoster ? poster?.image : nil,
            message: message?.text, customImages: configuration.customImages, localizer: localizer, jumpBackSeconds: options.jumpBackSeconds)
        guard scene != paintedScene else { return }
        paintedScene = scene
        guard let painted = try? painter.paint(scene) else { return }
        regions = painted.regions
        let focus = self.focus
        self.painted.withLock {
            $0 = PaintedState(regions: painted.regions, focus: focus, controlsShown: scene.controlsShown, menu: scene.menu, preview: scene.preview)
        }
        if shown != painted.image {
            shown = painted.image
            overlay.show(painted.image)
        }
    }

    func say(_ feedback: ControlFeedback?) {
        switch feedback {
        case .message(let text)?:
            message = (text, now + .seconds(2))
        case .openURL(let url, let text)?:
            message = (text, now + .seconds(3))
            // The viewer went to the advertiser: the ad waits (as the seed's Learn More does).
            controller?.pause()
            configuration.openLink(url)
            emit(.linkOpened(url.absoluteString))
        case nil:
            break
        }
    }
}

extension ControlLayout {
    /// The layout with `view` inserted in each bar after the first of `anchors` that bar has.
    func inserting(_ view: LayoutView, after anchors: [ControlTag]) -> ControlLayout {
        func insert(_ bar: ControlBar) -> ControlBar {
            for anchor in anchors {
                if let index = bar.views.firstIndex(where: { $0.tag == anchor }) {
                    var views = bar.views
                    views.insert(view, at: index + 1)
                    return ControlBar(views)
                }
            }
            return bar
        }
        return ControlLayout(
            standard: standardBars.map(insert), compact: compactBars.map(insert), compactLayoutMaximumWidth: compactLayoutMaximumWidth,
            horizontalItemSpacing: horizontalItemSpacing)
    }
}
