import CoveCore
import CovePlayerUI
import CoveSSAI

/// What a player's controls show, kept up to date from the controller's events: the one value the
/// terminal bar and the player view (controls drawn on the picture) both read.
///
/// A value: `handle(_:playbackRate:)` folds one event in. The front end that owns it handles events in
/// order on its own loop (the controller's single-loop rule), so it never races.
public struct PlayerControlsState: Sendable, Hashable {
    public private(set) var session: PlaybackSession?
    /// What the control bar draws.
    public var bar = ControlBarState()
    /// The content's duration, kept while a bumper's own duration is on the bar.
    public private(set) var contentDuration: Duration?
    public private(set) var mediaType: MediaType = .audioVideo
    public private(set) var videoType: VideoType = .vod
    /// Live streams: the playhead against the live edge (the live control, go to live, the DVR slider).
    public private(set) var liveEdge = LiveEdge()
    /// Playback follows the live edge as it started: no seek away from it since (go to live restores it).
    public var followingLive = true
    public private(set) var adsInBreak = 1
    /// The cues on screen now (selected text track), for drawing or one line of text.
    public private(set) var captionCues: [TextCue] = []
    public private(set) var status: PlayerUIState.Status = .loading
    /// What the controller can do now, as it last said (`availableCommandsChanged`).
    public private(set) var commands: Set<PlayerCommand> = []
    /// A frame of this session has been shown (a poster gives way to the picture then).
    public private(set) var hasShownFrame = false
    /// The volume the session plays at.
    public private(set) var volume = AudioVolume.full
    /// During an ad: how much of it has played (0…1); the ad's bar shows the ad's own progress, as the
    /// seed's ad controls do, while the content's clock stands at the break.
    public private(set) var adProgress: Double?

    public init() {}

    public var isLive: Bool { videoType == .live || videoType == .liveDVR }

    /// The caption on screen as one line ("first line / second line · next cue").
    public var captionText: String? {
        let text = captionCues.map { $0.text.replacingOccurrences(of: "\n", with: " / ") }.joined(separator: " · ")
        return text.isEmpty ? nil : text
    }

    /// Whether there is something to choose in the captions-and-audio menu.
    public var hasTrackChoices: Bool {
        guard let session else { return false }
        return !session.textTrackGroup.tracks.isEmpty || session.audioTrackGroup.tracks.count > 1
    }

    /// Seeking is possible now (not in a bumper, an ad, or live without DVR).
    public var canSeek: Bool { commands.contains(.seek) }

    /// Folds one controller event in. `playbackRate` is the controller's rate when the event arrived:
    /// a live playhead teaches where "live" is only at 1×.
    public mutating func handle(_ event: PlaybackEvent, playbackRate: Double, failed: Bool = false) {
        switch event {
        case .sessionAdvanced(let session):
            self.session = session
            bar = ControlBarState(bitrateLabel: bar.bitrateLabel, canSeek: commands.contains(.seek))
            contentDuration = nil
            liveEdge = LiveEdge()
            followingLive = true
            mediaType = .audioVideo
            videoType = .vod
            captionCues = []
            status = .loading
            hasShownFrame = false
            adProgress = nil
        case .durationChanged(_, let duration):
            contentDuration = duration
            if bar.phase != .bumper { bar.duration = duration }
        case .availableCommandsChanged(let commands):
            self.commands = commands
            bar.canSeek = commands.contains(.seek)
        case .mediaTypeDetermined(_, let type): mediaType = type
        case .videoTypeDetermined(_, let type): videoType = type
        case .progress(_, let time):
            guard let position = time.duration else { break }
            if isLive {
                liveEdge.playheadMoved(to: position, following: followingLive && playbackRate == 1)
                showLive()
            } else {
                bar.position = position
            }
        case .seekableRangesChanged(_, let ranges):
            guard let window = ranges.last, let start = window.start.duration, let end = window.end.duration else { break }
            liveEdge.windowChanged(start: start, end: end, following: followingLive && playbackRate == 1)
            if isLive { showLive() }
        case .framePresented:
            hasShownFrame = true
        case .volumeChanged(_, let volume):
            self.volume = volume
        case .lifecycle(_, let lifecycle):
            handle(lifecycle)
        case .textTrackSelected(_, let track):
            bar.captionsOn = track != nil
            if track == nil { captionCues = [] }
        case .textCuesChanged(_, let change):
            captionCues = change.cues
        case .adSequenceEntered(_, let sequence): adsInBreak = max(1, sequence.ads.count)
        case .adEntered(_, let ad):
            setAdPhase(ad: ad, remaining: ad.duration, into: .zero)
        case .adProgressed(_, let progress):
            setAdPhase(ad: progress.ad, remaining: progress.remaining, into: progress.time.duration ?? .zero)
        case .adExited, .adSkipped:
            bar.phase = .content
            bar.skipIn = nil
            adProgress = nil
        case .playlistCompleted, .noPlayableVideosFound: status = failed ? .failed : .ended
        default: break
        }
    }

    private mutating func handle(_ event: LifecycleEvent) {
        switch event {
        case .play, .recovered:
            bar.isPlaying = true
            status = .playing
        case .pause:
            bar.isPlaying = false
            status = .paused
        case .stalled: status = .buffering
        case .bumperEnter(let bumper):
            // The bar follows the bumper's own clock until it ends (the seed's bumper look).
            bar.phase = .bumper
            bar.position = .zero
            bar.duration = bumper.duration
            bar.isPlaying = true
            status = .playing
        case .bumperProgress(let time): bar.position = time.duration ?? bar.position
        case .bumperPause:
            bar.isPlaying = false
            status = .paused
        case .bumperResume:
            bar.isPlaying = true
            status = .playing
        case .bumperExit:
            bar.phase = .content
            bar.position = .zero
            bar.duration = contentDuration
            bar.isPlaying = false
            status = .loading
            hasShownFrame = false
        case .end:
            status = .ended
            bar.isPlaying = false
        case .fail, .failedToPlayToEndTime:
            status = .failed
            bar.isPlaying = false
        default: break
        }
    }

    /// A live bar: "Live" or "Go to live"; with DVR the slider covers the window.
    private mutating func showLive() {
        bar.isAtLiveEdge = liveEdge.isAtLiveEdge
        if videoType == .liveDVR, bar.phase != .bumper, let window = liveEdge.windowPosition {
            bar.position = window.position
            bar.duration = window.length
        }
    }

    private mutating func setAdPhase(ad: Ad, remaining: Duration, into: Duration) {
        if let position = try? AdPosition(
            index: ad.index + 1, count: max(adsInBreak, ad.index + 1), timeLeft: remaining, clickThroughURL: ad.clickThroughURL,
            isSkippable: ad.skipOffset != nil)
        {
            bar.phase = .ad(position)
        }
        bar.skipIn = ad.skipOffset.map { max(.zero, $0 - into) }
        adProgress = ad.duration > .zero ? min(1, max(0, into / ad.duration)) : nil
    }

    /// Where the content's ad breaks are, as fractions of the content's duration (SSAI), for marks on the
    /// progress bar. Empty when there are none or the duration is unknown.
    public var adBreakFractions: [Double] {
        guard let timeline = session?.ssai?.timeline, let duration = contentDuration, duration > .zero else { return [] }
        return timeline.breaks.compactMap { brk in
            let offset = Duration.nanoseconds(brk.contentOffset.nanoseconds)
            guard offset >= .zero, offset <= duration else { return nil }
            return offset / duration
        }
    }

    /// The layout to draw now: the app's (or the automatic one), the bitrate button when there is a
    /// menu, the captions button when there are choices, the phase's rules (see `ControlLayout.resolved`).
    public func layout(appLayout: ControlLayout?, options: PlayerUIOptions, hasBitrateMenu: Bool) -> ControlLayout {
        ControlLayout.resolved(
            appLayout: appLayout, options: options, mediaType: mediaType, videoType: videoType, phase: bar.phase, hasTrackChoices: hasTrackChoices
        ).settingRemoved(!hasBitrateMenu, for: .preferredBitrate)
    }
}
