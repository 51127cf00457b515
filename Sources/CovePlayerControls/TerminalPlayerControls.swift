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
public struct TerminalPlayerControls {
    let controller: PlaybackController
    let options: PlayerUIOptions
    let localizer: Localizer
    let accessible: Bool
    var captionLanguage: String? = nil

    /// `captionLanguage`: the text track to select once a session lists it.
    public init(
        controller: PlaybackController, options: PlayerUIOptions = .standard, localizer: Localizer, accessible: Bool = false, captionLanguage: String? = nil
    ) {
        self.controller = controller
        self.options = options
        self.localizer = localizer
        self.accessible = accessible
        self.captionLanguage = captionLanguage
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

    /// The two menus: captions and audio (each audio track when there is a choice, then Off and each
    /// text track, as the seed's captions menu lists both) and bitrate (Auto and each variant).
    private enum Menu {
        case captions(items: [(title: String, track: MediaTrack?)], selected: Int)
        case bitrate(menu: BitrateMenu, selected: Int)
    }

    private final class Model {
        var session: PlaybackSession?
        var bar = ControlBarState()
        /// The content's duration, kept while a bumper's own duration is on the bar.
        var contentDuration: Duration?
        var visibility: ControlsVisibility
        var mediaType: MediaType = .audioVideo
        var videoType: VideoType = .vod
        /// Live streams: the playhead against the live edge (the live control, go to live, the DVR slider).
        var liveEdge = LiveEdge()
        /// Playback follows the live edge as it started: no seek away from it since (go to live restores it).
        var followingLive = true
        var isLive: Bool { videoType == .live || videoType == .liveDVR }
        var adsInBreak = 1
        var caption: String?
        var menu: Menu?
        var message: String?
        /// Scrubbing: where Enter would seek to, and what the thumbnail there is.
        var preview: Preview?
        var status: PlayerUIState.Status = .loading
        var announced: PlayerUIState?
        /// What the controller can do now, as it last said (`availableCommandsChanged`).
        var commands: Set<PlayerCommand> = []

        init(visibility: ControlsVisibility) {
            self.visibility = visibility
        }

        /// The controls stay up while a menu or a preview is open, as they do while paused or in an ad.
        var isPinned: Bool {
            ControlsVisibility.isPinned(bar, status: status, overlayOpen: menu != nil || preview != nil)
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
        controller.setVideos(videos)
        let clock = ContinuousClock()
        let start = clock.now
        let now = { clock.now - start }
        let model = Model(visibility: ControlsVisibility(options: options, screenReaderMode: accessible))
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
                    handle(key, model: model, feed: feed)
                }
            case .preview(let time, let thumbnail, let image):
                guard model.preview?.time == time else { break }  // the viewer has moved on
                model.preview = Preview(time: time, thumbnail: thumbnail, image: image)
            case .event(let event):
                if let text = EventLogLine.text(for: event) { screen.log(text) }
                supervisor.handle(event)
                if case .lifecycle(_, .ready) = event, let seekTo { controller.seek(to: .seconds(seekTo)) }
                update(model, with: event, failed: supervisor.hasFailed)
                // --seek-to opens a live stream away from its edge: that is not where live is.
                if case .sessionAdvanced = event, seekTo != nil { model.followingLive = false }
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

    // MARK: Events

    private func update(_ model: Model, with event: PlaybackEvent, failed: Bool) {
        switch event {
        case .sessionAdvanced(let session):
            model.session = session
            model.bar = ControlBarState(bitrateLabel: model.bar.bitrateLabel, canSeek: model.commands.contains(.seek))
            model.contentDuration = nil
            model.liveEdge = LiveEdge()
            model.followingLive = true
            model.mediaType = .audioVideo
            model.videoType = .vod
            model.preview = nil
            model.caption = nil
            model.menu = nil
            model.status = .loading
        case .durationChanged(_, let duration):
            model.contentDuration = duration
            if model.bar.phase != .bumper { model.bar.duration = duration }
        case .availableCommandsChanged(let commands):
            model.commands = commands
            model.bar.canSeek = commands.contains(.seek)
        case .mediaTypeDetermined(_, let type): model.mediaType = type
        case .videoTypeDetermined(_, let type): model.videoType = type
        case .progress(_, let time):
            guard let position = time.duration else { break }
            if model.isLive {
                model.liveEdge.playheadMoved(to: position, following: model.followingLive && controller.playbackRate == 1)
                showLive(model)
            } else {
                model.bar.position = position
            }
        case .seekableRangesChanged(_, let ranges):
            guard let window = ranges.last, let start = window.start.duration, let end = window.end.duration else { break }
            model.liveEdge.windowChanged(start: start, end: end, following: model.followingLive && controller.playbackRate == 1)
            if model.isLive { showLive(model) }
        case .lifecycle(_, .play), .lifecycle(_, .recovered):
            model.bar.isPlaying = true
            model.status = .playing
        case .lifecycle(_, .pause):
            model.bar.isPlaying = false
            model.status = .paused
        case .lifecycle(_, .stalled): model.status = .buffering
        case .lifecycle(_, .bumperEnter(let bumper)):
            // The bar follows the bumper's own clock until it ends (the seed's bumper look).
            model.bar.phase = .bumper
            model.bar.position = .zero
            model.bar.duration = bumper.duration
            model.bar.isPlaying = true
            model.status = .playing
        case .lifecycle(_, .bumperProgress(let time)): model.bar.position = time.duration ?? model.bar.position
        case .lifecycle(_, .bumperPause):
            model.bar.isPlaying = false
            model.status = .paused
        case .lifecycle(_, .bumperResume):
            model.bar.isPlaying = true
            model.status = .playing
        case .lifecycle(_, .bumperExit):
            model.bar.phase = .content
            model.bar.position = .zero
            model.bar.duration = model.contentDuration
            model.bar.isPlaying = false
            model.status = .loading
        case .textTrackSelected(_, let track): model.bar.captionsOn = track != nil
        case .textCuesChanged(_, let change):
            let text = change.cues.map { $0.text.replacingOccurrences(of: "\n", with: " / ") }.joined(separator: " · ")
            model.caption = text.isEmpty ? nil : text
        case .adSequenceEntered(_, let sequence): model.adsInBreak = max(1, sequence.ads.count)
        case .adEntered(_, let ad):
            setAdPhase(model, ad: ad, remaining: ad.duration, into: .zero)
        case .adProgressed(_, let progress):
            setAdPhase(model, ad: progress.ad, remaining: progress.remaining, into: progress.time.duration ?? .zero)
        case .adExited, .adSkipped:
            model.bar.phase = .content
            model.bar.skipIn = nil
        case .lifecycle(_, .end): model.status = .ended
        case .lifecycle(_, .fail), .lifecycle(_, .failedToPlayToEndTime): model.status = .failed
        case .playlistCompleted, .noPlayableVideosFound: model.status = failed ? .failed : .ended
        default: break
        }
    }

    /// A live bar: "Live" or "Go to live"; with DVR the slider covers the window.
    private func showLive(_ model: Model) {
        model.bar.isAtLiveEdge = model.liveEdge.isAtLiveEdge
        if model.videoType == .liveDVR, model.bar.phase != .bumper, let window = model.liveEdge.windowPosition {
            model.bar.position = window.position
            model.bar.duration = window.length
        }
    }

    private func setAdPhase(_ model: Model, ad: Ad, remaining: Duration, into: Duration) {
        if let position = try? AdPosition(
            index: ad.index + 1, count: max(model.adsInBreak, ad.index + 1), timeLeft: remaining, clickThroughURL: ad.clickThroughURL)
        {
            model.bar.phase = .ad(position)
        }
        model.bar.skipIn = ad.skipOffset.map { max(.zero, $0 - into) }
    }

    // MARK: Keys

    private func handle(_ key: Key, model: Model, feed: AsyncStream<Input>.Continuation) {
        model.message = nil
        if let menu = model.menu {
            handleMenu(key, menu: menu, model: model)
            return
        }
        // The controller says whether seeking is possible now (not in a bumper, an ad, or live without DVR).
        let seekingAllowed = model.commands.contains(.seek)
        if let preview = model.preview, key == .enter || key == .escape {
            if key == .enter { controller.seek(to: MediaTime(preview.time)) }
            model.preview = nil
            return
        }
        switch key {
        case .character(","), .character("."):
            // Previews are of on-demand time (a live window's thumbnails would move under the viewer).
            guard seekingAllowed, !model.isLive, let session = model.session else { return }
            let step: Duration = key == .character(".") ? .seconds(10) : .zero - .seconds(10)
            var target = max(.zero, (model.preview?.time ?? model.bar.position) + step)
            if let duration = model.bar.duration { target = min(target, duration) }
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
        case .character(" "):
            if model.bar.isPlaying { controller.pause() } else { controller.play() }
        case .left, .right, .character("j"):
            guard seekingAllowed else {
                // The seed's bumper look has no seeking controls at all; during an ad say when the video resumes.
                if model.bar.phase.isAd, case .ad(let ad) = model.bar.phase {
                    model.message =
                        localizer.string(.advertisement) + ": "
                        + localizer.string(.videoWillResumeIn, [.time: TimeText.clock(ad.timeLeft ?? .zero, rounding: .up)])
                }
                return
            }
            let step: Duration = key == .right ? .seconds(10) : .zero - (key == .left ? .seconds(10) : options.jumpBackInterval)
            if model.isLive {
                // Stream time, inside the DVR window and short of the live position; live without DVR cannot seek.
                guard model.videoType == .liveDVR, let position = model.liveEdge.position else { return }
                controller.seek(to: MediaTime(model.liveEdge.clamped(position + step)))
                model.followingLive = false
                return
            }
            let target = max(.zero, model.bar.position + step)
            controller.seek(to: MediaTime(model.bar.duration.map { min(target, $0) } ?? target))
        case .character("g"):
            // Go to live (the live control, when it reads "Go to live").
            guard model.isLive, let target = model.liveEdge.liveTarget else { return }
            controller.seek(to: MediaTime(target))
            // Following again once there (the learnt offset would be taught by the landing anyway).
            model.followingLive = true
        case .character("c"):
            guard let session = model.session else { return }
            let tracks = session.textTrackGroup.tracks
            let audio = session.audioTrackGroup.tracks
            // One audio track is no choice: the audio section is listed only when there are several; the
            // one playing is ticked (the cursor starts on the captions choice).
            let playing = session.selectedAudioTrack
            let audioItems =
                audio.count > 1 ? audio.map { (localizer.string(.audio) + ": " + controller.title(for: $0) + ($0 == playing ? " ✓" : ""), Optional($0)) } : []
            let items = audioItems + [(localizer.string(.off), MediaTrack?.none)] + tracks.map { (controller.title(for: $0), Optional($0)) }
            let selected = audioItems.count + (session.selectedTextTrack.flatMap { chosen in tracks.firstIndex(of: chosen).map { $0 + 1 } } ?? 0)
            model.menu = .captions(items: items, selected: selected)
        case .character("b"):
            guard let session = model.session else { return }
            let menu = BitrateMenu(ladder: session.variants, localizer: localizer)
            let selected = menu.index(ofBitrate: controller.preferredPeakBitRate ?? 0) ?? 0
            model.menu = .bitrate(menu: menu, selected: selected)
        case .character("9"), .character("0"):
            controller.volume = min(1, max(0, ((controller.volume * 10).rounded() + (key == .character("0") ? 1 : -1)) / 10))
            if controller.isMuted { controller.isMuted = false }
            model.message = Self.volumeText(controller.volume, muted: false)
        case .character("m"):
            controller.isMuted.toggle()
            model.message = Self.volumeText(controller.volume, muted: controller.isMuted)
        case .character("+"), .character("="), .character("-"):
            let step = key == .character("-") ? -0.25 : 0.25
            controller.playbackRate = min(4, max(0.25, controller.playbackRate + step))
            model.message = Self.rateText(controller.playbackRate)
        case .character("s"):
            if model.session?.ssai?.skipAd() != true, model.bar.phase.isAd {
                model.message = localizer.string(.skipAdIn, [.time: TimeText.clock(model.bar.skipIn ?? .zero, rounding: .up)])
            }
        case .character("l"):
            if let url = model.session?.ssai?.clickThrough() { model.message = localizer.string(.learnMore) + ": " + url.absoluteString }
        default:
            break
        }
    }

    private func handleMenu(_ key: Key, menu: Menu, model: Model) {
        let count: Int
        var selected: Int
        switch menu {
        case .captions(let items, let s): (count, selected) = (items.count, s)
        case .bitrate(let bitrates, let s): (count, selected) = (bitrates.options.count, s)
        }
        switch key {
        case .up, .left: selected = max(0, selected - 1)
        case .down, .right: selected = min(count - 1, selected + 1)
        case .character(let c) where c.wholeNumberValue.map { (1...count).contains($0) } == true:
            selected = c.wholeNumberValue! - 1
            apply(menu, selected: selected, model: model)
            return
        case .enter:
            apply(menu, selected: selected, model: model)
            return
        case .escape, .character("c"), .character("b"), .character("q"):
            model.menu = nil
            return
        default: return
        }
        switch menu {
        case .captions(let items, _): model.menu = .captions(items: items, selected: selected)
        case .bitrate(let bitrates, _): model.menu = .bitrate(menu: bitrates, selected: selected)
        }
    }

    private func apply(_ menu: Menu, selected: Int, model: Model) {
        model.menu = nil
        switch menu {
        case .captions(let items, _):
            if let track = items[selected].track, track.kind == .audio {
                model.session?.selectAudioTrack(track)
                model.message = localizer.string(.audioSelection, [.name: controller.title(for: track)])
            } else {
                model.session?.selectTextTrack(items[selected].track)
                model.message = localizer.string(.captionsSelection, [.name: items[selected].title])
            }
        case .bitrate(let bitrates, _):
            let option = bitrates.options[selected]
            controller.setPreferredPeakBitRate(option.isAutomatic ? nil : option.bitrate)
            // The bar has room for the short name ("720p"), the menu for the whole title.
            model.bar.bitrateLabel =
                option.isAutomatic
                ? localizer.string(.auto) : String(option.title.split(separator: "·").first ?? Substring(option.title)).trimmingCharacters(in: .whitespaces)
            model.message = localizer.string(.bitrateSelection, [.name: option.title])
        }
    }

    /// "🔈 50 %", "🔇 50 %": the level as the viewer set it (symbols, so no language needs a string).
    static func volumeText(_ level: Double, muted: Bool) -> String {
        (muted ? "🔇 " : "🔈 ") + "\(Int((level * 100).rounded())) %"
    }

    /// "1×", "1.25×", "0.5×": the rate with no trailing zeros.
    static func rateText(_ rate: Double) -> String {
        var text = String(format: "%.2f", rate)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "×"
    }

    // MARK: Drawing

    /// The bar and the line under it; with the controls hidden only that line (captions keep showing).
    private func lines(_ model: Model, renderer: TerminalBarRenderer, controlsShown: Bool) -> [String] {
        guard controlsShown else { return [infoLine(model, colours: renderer.colours)] }
        let width = max(20, RawTerminal.columns)
        let layout = ControlLayout.resolved(
            appLayout: nil, options: options, mediaType: model.mediaType, videoType: model.videoType, phase: model.bar.phase,
            hasTrackChoices: !(model.session?.textTrackGroup.tracks.isEmpty ?? true)
        ).settingRemoved(model.session?.variants.variants.isEmpty ?? true, for: .preferredBitrate)
            // The seed's screen-mode button switches its view to full screen; `cove play` has no such
            // switch (the terminal is the terminal, and the --window sink manages its own window), so
            // it is not shown rather than shown doing nothing.
            .settingRemoved(true, for: .screenMode)
            .sizedForText(localizer)
        var lines = renderer.lines(layout: layout, state: model.bar, width: width)
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
        switch model.menu {
        case .captions(let items, let selected)?:
            return localizer.string(.captions) + ": " + items.enumerated().map { mark("\($0.offset + 1) \($0.element.title)", $0.offset == selected) }.joined()
        case .bitrate(let menu, let selected)?:
            return menu.displayTitle(localizer) + ": "
                + menu.options.enumerated().map { mark("\($0.offset + 1) \($0.element.title)", $0.offset == selected) }.joined()
        case nil:
            if let preview = model.preview { return previewLine(preview) }
            return model.message ?? model.caption ?? ""
        }
    }

    /// `--accessible`: what changed, as sentences (the seed's VoiceOver labels, for a screen reader).
    private func announce(_ model: Model, screen: ScreenRegion) {
        let captions = model.session?.selectedTextTrack.map { controller.title(for: $0) }
        let state = PlayerUIState(
            status: model.status, position: model.bar.position, phase: model.bar.phase, captions: captions, bitrate: model.bar.bitrateLabel,
            isAtLiveEdge: model.isLive ? model.liveEdge.isAtLiveEdge : nil)
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
