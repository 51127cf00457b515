import CoveCore
import CovePlayerUI
import CoveSSAI
import Foundation

/// The seed's PlayerUI re-thought for a terminal, as a component any app can run (`cove play` is one
/// user): a control bar under the event log, driven from the keyboard, or — `accessible` — plain
/// sentences instead of redraws. Keys: space, arrows, `j`, the captions-and-audio menu (`c`), the
/// bitrate menu (`b`), rate (`+`/`-`), volume (`9`/`0`) and mute (`m`), previews (`,`/`.`), ads (`s`, `l`),
/// live (`g`), quit (`q`).
///
/// One loop handles controller events, keys and a redraw tick in order (the controller's own
/// single-loop rule), so the model below is only ever touched here.
public struct TerminalPlayerControls: Sendable {
    let controller: PlaybackController
    let options: PlayerUIOptions
    let localizer: Localizer
    let accessible: Bool
    var captionLanguage: String? = nil
    /// The app's own layout (the seed's `controlsView.layout`); nil: the supplied layout for the stream.
    let layout: ControlLayout?

    /// `captionLanguage`: the text track to select once a session lists it. `layout`: the app's own bars
    /// (ignored with `automaticControlTypeSelection`, as in the seed); the bitrate menu is
    /// `options.bitrateMenu` when the app gave one, else one entry per variant.
    public init(
        controller: PlaybackController, options: PlayerUIOptions = .standard, localizer: Localizer, accessible: Bool = false, captionLanguage: String? = nil,
        layout: ControlLayout? = nil
    ) {
        self.controller = controller
        self.options = options
        self.localizer = localizer
        self.accessible = accessible
        self.captionLanguage = captionLanguage
        self.layout = layout
    }

    public static let keyHelp =
        "Keys: space play/pause · ←/→ seek 10 s · ,/. preview back/ahead (Enter seeks there) · j jump back · c captions and audio · b bitrate · +/- rate · 9/0 volume · m mute · s skip ad · l learn more · g go to live · q quit"

    private enum Input: Sendable {
        case event(PlaybackEvent)
        case key(Key)
        /// A scrubbing preview's thumbnail arrived (nil: none at that time), with its image when the
        /// terminal can show one.
        case preview(Duration, Thumbnail?, inlineImage: String?)
        /// The controls' hide deadline passed.
        case hideDeadline
        case eventsEnded
    }

    private final class Model {
        var controls = PlayerControlsState()
        var visibility: ControlsVisibility
        var menu: ControlMenu?
        var message: String?
        /// Scrubbing: where Enter would seek to, and what the thumbnail there is.
        var preview: Preview?
        var announced: PlayerUIState?

        init(visibility: ControlsVisibility) {
            self.visibility = visibility
        }

        /// The controls stay up while a menu or a preview is open, as they do while paused or in an ad.
        var isPinned: Bool {
            ControlsVisibility.isPinned(controls.bar, status: controls.status, overlayOpen: menu != nil || preview != nil)
        }
    }

    /// A scrubbing preview: the position Enter would seek to, and once it arrives the thumbnail there
    /// (with its image, on terminals that draw one).
    private struct Preview {
        let time: Duration
        var thumbnail: Thumbnail?
        var image: String?
    }

    /// Plays `videos` with the controls until they end, fail, the viewer quits or Ctrl-C.
    public func play(_ videos: [Video], seekTo: Double? = nil, autoAdvance: Bool = false) async -> PlaybackOutcome {
        let terminal = RawTerminal()
        let interactive = RawTerminal.isInteractive
        if interactive { terminal.enable() }
        defer { terminal.restore() }
        let screen = ScreenRegion(enabled: !accessible && Terminal.isTTY)
        let renderer = TerminalBarRenderer(localizer: localizer, colours: Terminal.isTTY, jumpBackSeconds: options.jumpBackSeconds)
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
        let events = controller.events
        let forwardEvents = Task {
            for await event in events { feed.yield(.event(event)) }
            feed.yield(.eventsEnded)
        }
        let forwardKeys = Task {
            guard interactive else { return }
            for await key in KeyReader.keys() { feed.yield(.key(key)) }
        }
        defer {
            forwardEvents.cancel()
            forwardKeys.cancel()
        }
        let stop = Interrupt.install { [controller] in controller.shutdown() }
        defer { stop.cancel() }
        screen.log(accessible ? Self.keyHelp.replacingOccurrences(of: " · ", with: ". ") + "." : Self.keyHelp)
        controller.isAutoAdvance = autoAdvance
        applyInitialBitrate()
        controller.setVideos(videos)
        let clock = ContinuousClock()
        let start = clock.now
        let now = { clock.now - start }
        let model = Model(visibility: ControlsVisibility(options: options, screenReaderMode: accessible))
        let actions = ControlActions(controller: controller, options: options, localizer: localizer)
        var hideTimer: (deadline: Duration, task: Task<Void, Never>)?
        defer { hideTimer?.task.cancel() }
        var supervisor = PlaybackSupervisor(controller: controller, videos: videos, autoAdvance: autoAdvance, captionLanguage: captionLanguage)
        loop: for await input in inputs {
            switch input {
            case .eventsEnded:
                break loop
            case .hideDeadline:
                break  // redrawn below
            case .key(let key):
                model.visibility.noteActivity(at: now())
                if model.menu == nil, key == .character("q") || key == .character("Q") {
                    supervisor.quit()
                } else {
                    handle(key, model: model, actions: actions, feed: feed)
                }
            case .preview(let time, let thumbnail, let image):
                guard model.preview?.time == time else { break }  // the viewer has moved on
                model.preview = Preview(time: time, thumbnail: thumbnail, image: image)
            case .event(let event):
                if let text = EventLogLine.text(for: event) { screen.log(text) }
                supervisor.handle(event)
                if case .lifecycle(_, .ready) = event, let seekTo { controller.seek(to: .seconds(seekTo)) }
                if case .sessionAdvanced = event {
                    model.preview = nil
                    model.menu = nil
                }
                model.controls.handle(event, playbackRate: controller.playbackRate, failed: supervisor.hasFailed)
                // --seek-to opens a live stream away from its edge: that is not where live is.
                if case .sessionAdvanced = event, seekTo != nil { model.controls.followingLive = false }
            }
            model.visibility.setPinned(model.isPinned, at: now())
            if accessible {
                announce(model, screen: screen)
            } else {
                screen.draw(lines(model, renderer: renderer, controlsShown: model.visibility.isShown(at: now())))
            }
            // One timer for the next hide deadline; a later key press moves the deadline and replaces it.
            if let deadline = model.visibility.hideDeadline, deadline > now() {
                if hideTimer?.deadline != deadline {
                    hideTimer?.task.cancel()
                    let wake = start + deadline
                    hideTimer = (
                        deadline,
                        Task {
                            guard (try? await clock.sleep(until: wake)) != nil else { return }
                            feed.yield(.hideDeadline)
                        }
                    )
                }
            } else if let timer = hideTimer {
                timer.task.cancel()
                hideTimer = nil
            }
        }
        screen.finish()
        await supervisor.finish()
        return supervisor.outcome
    }

    /// The app's bitrate menu starts on its initial selection (the seed's `indexOfInitialSelection`).
    private func applyInitialBitrate() {
        guard let menu = options.bitrateMenu, menu.options.indices.contains(menu.initialSelection) else { return }
        let option = menu.options[menu.initialSelection]
        if !option.isAutomatic { controller.setPreferredPeakBitRate(option.bitrate) }
    }

    // MARK: Keys

    private func handle(_ key: Key, model: Model, actions: ControlActions, feed: AsyncStream<Input>.Continuation) {
        model.message = nil
        if model.menu != nil {
            handleMenu(key, model: model, actions: actions)
            return
        }
        if let preview = model.preview, key == .enter || key == .escape {
            if key == .enter { controller.seek(to: MediaTime(preview.time)) }
            model.preview = nil
            return
        }
        let action: ControlAction?
        switch key {
        case .character(","), .character("."):
            // Previews are of on-demand time (a live window's thumbnails would move under the viewer).
            guard model.controls.canSeek, !model.controls.isLive, let session = model.controls.session else { return }
            let step: Duration = key == .character(".") ? .seconds(10) : .zero - .seconds(10)
            var target = max(.zero, (model.preview?.time ?? model.controls.bar.position) + step)
            if let duration = model.controls.bar.duration { target = min(target, duration) }
            model.preview = Preview(time: target)
            let inline = Self.terminalShowsInlineImages
            Task {
                let thumbnail = await session.thumbnail(at: MediaTime(target))
                var image: String?
                if inline, thumbnail != nil, let png = try? await session.thumbnailImage(at: MediaTime(target)) {
                    // iTerm2's inline image protocol: the PNG, base64, sized in character cells.
                    image = "\u{1B}]1337;File=inline=1;width=16;preserveAspectRatio=1:\(png.base64EncodedString())\u{07}"
                }
                feed.yield(.preview(target, thumbnail, inlineImage: image))
            }
            return
        case .character(" "): action = .togglePlayback
        case .left: action = .seekBy(.zero - .seconds(10))
        case .right: action = .seekBy(.seconds(10))
        case .character("j"): action = .jumpBack
        case .character("g"): action = .goToLive
        case .character("c"):
            guard let session = model.controls.session else { return }
            model.menu = ControlMenu.captions(session: session, controller: controller, localizer: localizer)
            return
        case .character("b"):
            guard let session = model.controls.session else { return }
            model.menu = ControlMenu.bitrate(appMenu: options.bitrateMenu, session: session, controller: controller, localizer: localizer)
            return
        case .character("9"): action = .changeVolume(by: -0.1)
        case .character("0"): action = .changeVolume(by: 0.1)
        case .character("m"): action = .toggleMute
        case .character("+"), .character("="): action = .changeRate(by: 0.25)
        case .character("-"): action = .changeRate(by: -0.25)
        case .character("s"): action = .skipAd
        case .character("l"): action = .learnMore
        default: action = nil
        }
        guard let action else { return }
        show(actions.perform(action, state: &model.controls), model: model)
    }

    private func show(_ feedback: ControlFeedback?, model: Model) {
        switch feedback {
        case .message(let text)?: model.message = text
        case .openURL(_, let text)?: model.message = text
        case nil: break
        }
    }

    private func handleMenu(_ key: Key, model: Model, actions: ControlActions) {
        guard var menu = model.menu else { return }
        switch key {
        case .up, .left: menu.move(by: -1)
        case .down, .right: menu.move(by: 1)
        case .character(let c) where c.wholeNumberValue.map { (1...menu.items.count).contains($0) } == true:
            menu.select(c.wholeNumberValue! - 1)
            model.menu = nil
            show(actions.perform(menu.items[menu.selected].action, state: &model.controls), model: model)
            return
        case .enter:
            model.menu = nil
            guard menu.items.indices.contains(menu.selected) else { return }
            show(actions.perform(menu.items[menu.selected].action, state: &model.controls), model: model)
            return
        case .escape, .character("c"), .character("b"), .character("q"):
            model.menu = nil
            return
        default: return
        }
        model.menu = menu
    }

    /// "🔈 50 %", "🔇 50 %": the level as the viewer set it (symbols, so no language needs a string).
    static func volumeText(_ level: Double, muted: Bool) -> String { ControlActions.volumeText(level, muted: muted) }

    /// "1×", "1.25×", "0.5×": the rate with no trailing zeros.
    static func rateText(_ rate: Double) -> String { ControlActions.rateText(rate) }

    // MARK: Drawing

    /// The bar and the line under it; with the controls hidden only that line (captions keep showing).
    private func lines(_ model: Model, renderer: TerminalBarRenderer, controlsShown: Bool) -> [String] {
        guard controlsShown else { return [infoLine(model, colours: renderer.colours)] }
        let width = max(20, RawTerminal.columns)
        let hasBitrateMenu = options.bitrateMenu != nil || !(model.controls.session?.variants.variants.isEmpty ?? true)
        let layout = model.controls.layout(appLayout: self.layout, options: options, hasBitrateMenu: hasBitrateMenu)
            // The seed's screen-mode button switches its view to full screen; `cove play` has no such
            // switch in a terminal (the terminal is the terminal; the window has its own button), so it
            // is not shown rather than shown doing nothing.
            .settingRemoved(true, for: .screenMode)
            .sizedForText(localizer)
        var lines = renderer.lines(layout: layout, state: model.controls.bar, width: width)
        lines.append(infoLine(model, colours: renderer.colours))
        return lines
    }

    /// Terminals known to draw inline images (iTerm2's protocol); elsewhere the preview is the time only.
    static var terminalShowsInlineImages: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["LC_TERMINAL"] == "iTerm2" || environment["TERM_PROGRAM"] == "iTerm.app"
    }

    /// "Position 0:22 · ▣ 0:20–0:25 sprite.jpg": where Enter would seek, and the scrubbing thumbnail there.
    private func previewLine(_ preview: Preview) -> String {
        var line = localizer.string(.position, [.time: TimeText.clock(preview.time)])
        if let thumbnail = preview.thumbnail {
            let range = [thumbnail.start, thumbnail.end].map { TimeText.clock($0.duration ?? .zero) }.joined(separator: "–")
            line += " · ▣ \(range) \(thumbnail.imageURL.lastPathComponent)"
        }
        line += " · Enter ↵ / Esc"
        return line + (preview.image ?? "")
    }

    /// Under the bar: an open menu, else a scrubbing preview, else a message, else the caption.
    private func infoLine(_ model: Model, colours: Bool) -> String {
        let mark = { (text: String, on: Bool) in on ? (colours ? "\u{1B}[7m \(text) \u{1B}[0m" : "[\(text)]") : " \(text) " }
        if let menu = model.menu {
            // The playing audio is ticked; the cursor is marked.
            return menu.title + ": "
                + menu.items.enumerated().map { index, item in
                    let tick = item.isCurrent && { if case .selectAudioTrack = item.action { return true } else { return false } }() ? " ✓" : ""
                    return mark("\(index + 1) \(item.title)\(tick)", index == menu.selected)
                }.joined()
        }
        if let preview = model.preview { return previewLine(preview) }
        return model.message ?? model.controls.captionText ?? ""
    }

    /// `--accessible`: what changed, as sentences (the seed's VoiceOver labels, for a screen reader).
    private func announce(_ model: Model, screen: ScreenRegion) {
        let controls = model.controls
        let captions = controls.session?.selectedTextTrack.map { controller.title(for: $0) }
        let state = PlayerUIState(
            status: controls.status, position: controls.bar.position, phase: controls.bar.phase, captions: captions, bitrate: controls.bar.bitrateLabel,
            isAtLiveEdge: controls.isLive ? controls.liveEdge.isAtLiveEdge : nil)
        for sentence in ScreenReaderAnnouncer(localizer: localizer).sentences(from: model.announced, to: state) { screen.log(sentence) }
        model.announced = state
        if let message = model.message {
            screen.log(message)
            model.message = nil
        }
        if model.menu != nil { screen.log(infoLine(model, colours: false)) }
    }
}

/// The bottom lines of the terminal that are redrawn in place, with log lines scrolling above
/// them. Without a terminal (or in accessible mode) only the log lines are written.
final class ScreenRegion {
    private let enabled: Bool
    private var drawn: [String] = []

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func log(_ text: String) {
        guard enabled else { return Terminal.line(text) }
        Terminal.write(clear() + text + "\n" + render(drawn))
    }

    func draw(_ lines: [String]) {
        guard enabled, lines != drawn else { return }
        Terminal.write(clear() + render(lines))
        drawn = lines
    }

    func finish() {
        guard enabled, !drawn.isEmpty else { return }
        Terminal.write(String(repeating: "\n", count: drawn.count))
        drawn = []
    }

    /// Writes `lines` and leaves the cursor at the start of the first of them.
    private func render(_ lines: [String]) -> String {
        guard !lines.isEmpty else { return "" }
        let up = lines.count > 1 ? "\u{1B}[\(lines.count - 1)A" : ""
        return lines.map { "\u{1B}[2K" + $0 }.joined(separator: "\n") + up + "\r"
    }

    /// Clears what was drawn, leaving the cursor where it started.
    private func clear() -> String {
        guard !drawn.isEmpty else { return "\r" }
        let lines = Array(repeating: "\u{1B}[2K", count: drawn.count).joined(separator: "\u{1B}[1B")
        let up = drawn.count > 1 ? "\u{1B}[\(drawn.count - 1)A" : ""
        return "\r" + lines + up + "\r"
    }
}
