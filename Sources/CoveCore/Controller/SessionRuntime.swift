import Foundation

/// The loop's private bookkeeping for the active session. Only the controller loop touches it.
final class SessionRuntime {
    enum Phase: Equatable {
        /// The engine is loading: waiting for the first frame.
        case loading
        /// Loaded; seeks and playback allowed.
        case ready
        /// Played to the end.
        case ended
        /// Failed to load, or failed mid-stream; nothing more will play.
        case failed
    }

    let session: PlaybackSession
    /// The plan's plugin hooks (SSAI), if any.
    var hooks: (any PlaybackSessionHooks)?
    /// Whether the next playhead report to the hooks follows a jump (a seek or a rebuild), and whether a
    /// plugin reported an ad break the playhead is in (the engine plays at 1× until it ends).
    var hooksState = HooksState()
    /// Replaced when the controller rebuilds the pipeline (a retry or `resumeVideo(at:)`).
    private(set) var player: (any EnginePlayer)?
    /// Counts pipelines of this session; events of a replaced one are dropped.
    private(set) var generation = 0
    /// What the engine plays (the plan's URL), kept for rebuilds.
    let playbackURL: URL?
    var phase: Phase
    var eventTask: Task<Void, Never>?

    /// Installs a new engine player (the old one must already be closed).
    func replacePlayer(_ player: any EnginePlayer) {
        self.player = player
        generation += 1
        session.update { $0.player = player }
    }

    // Resilience.
    /// Why the current pipeline was rebuilt, until it loads (or fails to).
    var rebuilding: Rebuild?
    /// The failure episode's attempts and automatic-resume probes, and when the episode is over.
    var retries = RetryBudget()
    /// Where playback stopped, for the rebuilt pipeline to start at.
    var resumePosition: MediaTime?
    /// Where the current rebuilt pipeline was asked to start (a retry's seek target, a resume's time),
    /// until it loads: its position until the engine knows one.
    var rebuildStart: MediaTime?
    /// What happens once: Ready (a rebuilt pipeline never reports it again), the next video's preload, and
    /// FailedToPlayToEndTime (once per failure).
    var milestones = SessionMilestones()
    /// Cue points at or before this were already reported before a resume; they do not fire again.
    var cueHighWater: MediaTime = .before
    var lastEmittedProgress: MediaTime?

    enum Rebuild: Equatable {
        /// A seek outside the buffer, opened on a fresh pipeline at the lowest variant.
        case seek
        case retry(RetryAttempt.Kind)
        case resume(autoPlay: Bool, automatic: Bool)
    }

    // Buffer optimizer.
    /// Media time watched in this session (natural playback only; seeks and rebuilds do not count).
    var watched: Duration = .zero
    var lastWatchedPosition: MediaTime?
    /// The forward-buffer target given to the engine; the session shows it to the app.
    var appliedBufferTarget: Duration? {
        get { session.forwardBufferTarget }
        set { session.update { $0.forwardBufferTarget = newValue } }
    }

    // Bitrate (kept on the session, where the app reads them).
    var ladder: VariantLadder {
        get { session.variants }
        set { session.update { $0.ladder = newValue } }
    }
    var activeVariant: Variant? {
        get { session.activeVariant }
        set { session.update { $0.activeVariant = newValue } }
    }
    /// The cap last applied to the engine (nil: uncapped).
    var appliedBitrateCap: Int?
    /// What the next variant switch is put down to (a cap change, a low-variant seek).
    var variantAttribution = VariantAttribution()

    // Preloading.
    /// Events a preloaded pipeline produced before its session became current, replayed then.
    var pendingEvents: [EngineEvent] = []

    /// Whether the app wants playback, the engine's clock runs, `Play` was reported (first or not), and what
    /// holds playback (a stall, the bumper, a load waiting for its turn).
    var intent = PlayIntent()
    /// Which presented frames are reported, and as what (start, seek, resume, transition).
    var frames = FrameTiming()

    /// Upper bound of the last cue-point/progress report: the `previous` of the next one.
    var lastReportedTime: MediaTime = .before
    var duration: MediaTime?
    var seekableRanges: [TimeRange] = []
    /// What the engine said the media is when it became ready (nil before).
    var videoType: VideoType?
    var isLive: Bool { videoType.map { $0 != .vod } ?? false }
    var engineTracks: [EngineTrack] = []
    var selectedTrackIDs: [String] = []
    /// What the stream selected on its own at first (its DEFAULT renditions).
    var defaultTrackIDs: Set<String>?

    /// Seeks asked before the media was ready, given as the start position, or in flight.
    var seeks = SeekTracker()

    /// Whether normal playback ran dry, the buffering level and the downloads' first failure.
    var stall = StallWatch()

    /// The session's timers (progress ticks, cue boundaries, retries, the bumper's stall deadline).
    var timers = TimerTable()
    /// The sidecar text track shown instead of the stream's own (its `MediaTrack.id`).
    var selectedSidecarID: String?
    /// The latest audio and stream-text choices asked of the engine. A selection names both kinds, and the
    /// engine confirms one asynchronously: a choice made before the other is confirmed must re-send that
    /// one as asked, not as the session still shows it (nil: none asked yet; `.some(nil)`: no stream text).
    var requestedAudioTrackID: String?
    var requestedStreamTextID: String??
    /// Text tracks a plugin offers while an interstitial plays (an SSAI ad's captions), and the one of
    /// them shown in place of the content's selection (its `MediaTrack.id`), which stays as it was.
    var interstitialTextTracks: [SidecarTextTrack] = []
    var interstitialTextID: String?
    /// The cues last reported for it, so only changes are reported.
    var reportedCues: [TextCue] = []
    var reportedCueTrack: MediaTrack?
    /// The volume the app set for this session alone (nil: the controller's).
    var volumeOverride: AudioVolume?
    /// The volume last reported for this session, so only changes are reported.
    var reportedVolume: AudioVolume?
    /// Cues of the stream's own text rendition, as the engine delivers them.
    var streamCues = TextCueIndex()
    /// Holds the session to the remembered caption choice until the app chooses its text itself.
    var captionPreference = CaptionPreferenceHold()
    /// The cue boundary (and rate) the `.cueBoundary` timer wakes up for.
    var cueWake: (boundary: MediaTime, rate: Double)?

    /// The bumper playing before the content, until it exits.
    var bumper: BumperRuntime?

    final class BumperRuntime {
        let video: Video
        let player: any EnginePlayer
        var eventTask: Task<Void, Never>?
        /// Its engine's state, its pause/resume reports and its first frame.
        var playback = BumperPlayback()
        /// Ran out of data while playing (skipped if it does not recover within the stall timeout), and
        /// whether its downloads failed (fatal once it runs dry).
        var stall = StallWatch()

        init(video: Video, player: any EnginePlayer) {
            self.video = video
            self.player = player
        }
    }

    init(session: PlaybackSession, player: (any EnginePlayer)?, phase: Phase) {
        self.session = session
        self.player = player
        self.playbackURL = nil
        self.phase = phase
    }

    /// A session whose engine player was built with `configuration`: the URL, buffer target and
    /// bitrate cap the engine was given are what later rebuilds start from.
    init(session: PlaybackSession, player: any EnginePlayer, configuration: EnginePlayerConfiguration) {
        self.session = session
        self.player = player
        self.playbackURL = configuration.url
        self.phase = .loading
        self.appliedBitrateCap = configuration.maxBitrate
        self.appliedBufferTarget = configuration.forwardBufferDuration
    }

    struct PendingSeek {
        let id: Int
        let target: MediaTime
        let tolerance: SeekTolerance
        let completion: (@Sendable (Bool) -> Void)?
    }
}

/// A session being prepared by the provider chain, and what the app asked for meanwhile.
struct Preparation {
    let id: Int
    var index: Int
    let video: Video
    /// The bumper that plays before this video, if one still has to play in this queue.
    let bumper: Video?
    /// Only whether playback is wanted: the session takes it over.
    var intent: PlayIntent
    var queuedSeek: SessionRuntime.PendingSeek?
    /// What the providers were given, with the events they reported for the session to come.
    let context: SessionPreparationContext
}
