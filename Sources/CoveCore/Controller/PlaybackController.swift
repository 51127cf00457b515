import Logging
import Synchronization

/// Plays a queue of videos, one session at a time, and reports what happens.
///
/// Every method returns immediately and is safe to call from any thread or task; calls take effect
/// in the order they were made, on the controller's single event loop (mpv style), together with
/// the engine's own events. Outcomes arrive as `PlaybackEvent`s through three doors that see the same
/// sequence: the `events` async stream, the `delegate`, and session consumers.
///
/// ```swift
/// let controller = PlayerSDKManager.shared.makePlaybackController(engine: GStreamerEngine())
/// controller.isAutoPlay = true
/// controller.setVideos([Video(url: url)])
/// for await event in controller.events { print(event) }
/// ```
public final class PlaybackController: Sendable {
    private let loop: ControllerLoop
    private let dispatcher: EventDispatcher
    private let shared: ControllerShared

    /// Creates a controller. Most apps use `PlayerSDKManager.makePlaybackController`.
    public init(
        engine: any MediaEngine, sessionProvider: any PlaybackSessionProvider = BasicSessionProvider(),
        configuration: PlaybackControllerConfiguration = PlaybackControllerConfiguration()
    ) {
        let shared = ControllerShared()
        let dispatcher = EventDispatcher(delegate: { shared.delegate }, controller: { shared.controller }, executor: configuration.callbackExecutor)
        self.shared = shared
        self.dispatcher = dispatcher
        self.loop = ControllerLoop(engine: engine, provider: sessionProvider, configuration: configuration, dispatcher: dispatcher, shared: shared)
        shared.setController(self)
    }

    deinit {
        loop.send(.command(.shutdown))
    }

    // MARK: Observation

    /// What track menus show for `track`: the delegate's custom title, else its display name
    /// (language name, "SDH" for accessibility tracks). Asks the delegate on the caller's thread.
    public func title(for track: MediaTrack) -> String {
        let custom: String?
        switch track.kind {
        case .text: custom = delegate?.playbackController(self, titleForTextTrack: track)
        case .audio: custom = delegate?.playbackController(self, titleForAudioTrack: track)
        }
        return custom.flatMap { $0.isEmpty ? nil : $0 } ?? track.displayName
    }

    /// The single delegate, held weakly (the seed's `delegate`).
    public var delegate: (any PlaybackControllerDelegate)? {
        get { shared.delegate }
        set { shared.setDelegate(newValue) }
    }

    /// A new stream of every event from now on. Each call makes an independent subscriber; the stream
    /// ends when the controller shuts down.
    public var events: AsyncStream<PlaybackEvent> { dispatcher.subscribe() }

    /// Adds a consumer; if a session is active it immediately receives `didAdvance(to:)` for it.
    public func addSessionConsumer(_ consumer: any PlaybackSessionConsumer) {
        loop.send(.command(.addConsumer(consumer)))
    }

    public func removeSessionConsumer(_ consumer: any PlaybackSessionConsumer) {
        loop.send(.command(.removeConsumer(ObjectIdentifier(consumer))))
    }

    /// The session being played, if any.
    public var currentSession: PlaybackSession? { loop.currentSessionSnapshot }

    /// What the controller can do right now, as the loop last published it (see `PlayerCommand`);
    /// `availableCommandsChanged` reports each change.
    public var availableCommands: Set<PlayerCommand> { shared.availableCommands.withLock { $0 } }

    // MARK: Queue

    /// Start playing a new session as soon as it is delivered (default off, as in the seed).
    public var isAutoPlay: Bool {
        get { shared.settings.withLock { $0.autoPlay } }
        set { changeSettings { $0.autoPlay = newValue } }
    }

    /// Move to the next video when one ends (default off, as in the seed).
    public var isAutoAdvance: Bool {
        get { shared.settings.withLock { $0.autoAdvance } }
        set { changeSettings { $0.autoAdvance = newValue } }
    }

    /// Replaces the queue and the current session with `videos`, starting at the first.
    public func setVideos(_ videos: some Sequence<Video>) {
        loop.send(.command(.setVideos(Array(videos))))
    }

    /// Ends the current session and starts the next video in the queue.
    public func advanceToNext() {
        loop.send(.command(.advanceToNext))
    }

    /// Inserts `video` after the video at `index`; reported by `videoInserted` or `videoInsertionFailed`.
    public func insertVideo(_ video: Video, afterVideoAt index: Int) {
        loop.send(.command(.insert(video, after: index)))
    }

    // MARK: Transport

    public func play() {
        loop.send(.command(.play))
    }

    public func pause() {
        loop.send(.command(.pause))
    }

    /// Seeks the current session. Before `Ready` the seek is queued and performed as soon as the media
    /// is loaded (a later seek replaces a queued one, whose completion receives `false`). A seek that a
    /// newer seek interrupts also completes with `false`. The completion runs on the delivery task,
    /// after the events that precede it.
    public func seek(to time: MediaTime, tolerance: SeekTolerance = .default, completion: (@Sendable (Bool) -> Void)? = nil) {
        loop.send(.command(.seek(time, tolerance, completion)))
    }

    /// Seeks and waits for the outcome: true when the seek landed, false when it was interrupted or impossible.
    @discardableResult
    public func seekAndWait(to time: MediaTime, tolerance: SeekTolerance = .default) async -> Bool {
        await withCheckedContinuation { continuation in
            seek(to: time, tolerance: tolerance) { continuation.resume(returning: $0) }
        }
    }

    /// Playback rate; values ≤ 0 (and NaN) become 1.0. Audio keeps its pitch.
    public var playbackRate: Double {
        get { shared.settings.withLock { $0.rate } }
        set {
            let rate = newValue > 0 && newValue.isFinite ? newValue : 1
            changeSettings { $0.rate = rate }
        }
    }

    /// The audio volume, 0 (silent) to 1 (the stream's level), for every session that has no volume of
    /// its own (`PlaybackSession.setVolume`); values outside are clamped. Reported back per session as
    /// `.volumeChanged` once the engine applied it.
    public var volume: Double {
        get { shared.settings.withLock { $0.volume.level } }
        set { changeSettings { $0.volume = AudioVolume(level: newValue, isMuted: $0.volume.isMuted) } }
    }

    /// Silences every session that has no volume of its own, keeping the level for unmuting.
    public var isMuted: Bool {
        get { shared.settings.withLock { $0.volume.isMuted } }
        set { changeSettings { $0.volume = AudioVolume(level: $0.volume.level, isMuted: newValue) } }
    }

    /// How audio sounds at a playback rate other than 1 (the seed's `audioTimePitchAlgorithm`): the
    /// pitch kept (`.timeStretch`, the default, as the seed sets for a custom rate) or following the
    /// rate (`.varispeed`). Like the seed's per-item setting, it applies to the sessions (and their
    /// pipelines) made after it is set.
    public var audioPitchAlgorithm: AudioPitchAlgorithm {
        get { shared.settings.withLock { $0.pitchAlgorithm } }
        set { changeSettings { $0.pitchAlgorithm = newValue } }
    }

    /// The seed's shutter: true covers the picture with black (the sound plays on), false uncovers it,
    /// faded over `shutterFadeTime`. Close it before `setVideos` and a resume seek (the SSAI plugin's
    /// "seek without ads" recipe) and the first frame never flashes; open it when the seek completes.
    /// Every player of the controller is covered, new ones as they are made. Engines that cannot cover the
    /// picture ignore it.
    public var shutter: Bool {
        get { shared.settings.withLock { $0.shutter } }
        set { changeSettings { $0.shutter = newValue } }
    }

    /// How long the shutter takes to open or close (the seed's `shutterFadeTime`); zero (the default)
    /// is at once. Negative or non-finite values become zero. Applies to the next change of `shutter`.
    public var shutterFadeTime: Duration {
        get { shared.settings.withLock { $0.shutterFadeTime } }
        set { changeSettings { $0.shutterFadeTime = newValue > .zero ? newValue : .zero } }
    }

    /// Every setting changes here: under one lock (two threads changing one each lose neither, the level
    /// and the mute of the volume among them), and the loop gets the new settings as a command sent under
    /// that lock, so it sees the changes in the order they were made and in order with every other command.
    private func changeSettings(_ change: (inout ControllerSettings) -> Void) {
        shared.settings.withLock { settings in
            change(&settings)
            loop.send(.command(.updateSettings(settings)))
        }
    }

    /// Caps adaptive streaming at `bitsPerSecond` for the current session and every later one;
    /// 0 or nil removes the cap (the seed's `setPreferredPeakBitRate`).
    public func setPreferredPeakBitRate(_ bitsPerSecond: Int?) {
        let cap = bitsPerSecond.flatMap { $0 > 0 ? $0 : nil }
        changeSettings { $0.peakBitrate = cap }
    }

    /// The preferred peak bit rate in effect (nil when uncapped).
    public var preferredPeakBitRate: Int? { shared.settings.withLock { $0.peakBitrate } }

    /// Caps adaptive streaming to variants no larger than `width`×`height` (either may be nil), for the
    /// current session and every later one; nil for both removes the cap. Applied as a bitrate cap
    /// from the stream's ladder, combined with the preferred peak bit rate (the lower wins).
    public func setMaximumResolution(width: Int?, height: Int?) {
        let cap = (width == nil && height == nil) ? nil : ControllerSettings.ResolutionCap(width: width.map { max($0, 1) }, height: height.map { max($0, 1) })
        changeSettings { $0.maximumResolution = cap }
    }

    /// The forward-buffer policy (the seed's buffer optimizer options). Set it before `setVideos(_:)`;
    /// a change also applies to the current session from its next progress report.
    public var bufferOptimizer: BufferOptimizer {
        get { shared.settings.withLock { $0.bufferOptimizer } }
        set { changeSettings { $0.bufferOptimizer = newValue } }
    }

    /// Thumbnail seeking (the seed's `thumbnailSeekingEnabled`, on by default). Off, sessions download
    /// no thumbnail track, `thumbnail(at:)` gives nil and `thumbnailImage(at:)` throws `unavailable`.
    /// Takes effect for the next call; a session started while it was off loads its track on first use.
    public var thumbnailSeekingEnabled: Bool {
        get { shared.settings.withLock { $0.thumbnailSeekingEnabled } }
        set { changeSettings { $0.thumbnailSeekingEnabled = newValue } }
    }

    /// Seeks play no ads while this is on (the seed's `adsDisabled`, server-side ads only): set it
    /// in the `Ready` handler, seek, and clear it in the seek's completion to resume a viewer's place
    /// without making them sit through breaks again (the seed's "Seek Without Ads").
    public var adsDisabled: Bool {
        get { shared.settings.withLock { $0.adsDisabled } }
        set { changeSettings { $0.adsDisabled = newValue } }
    }

    /// The current session's thumbnail for `time` (see `PlaybackSession.thumbnail(at:)`).
    public func thumbnail(at time: MediaTime) async -> Thumbnail? {
        await currentSession?.thumbnail(at: time)
    }

    /// Rebuilds the current session's engine pipeline and resumes at `time` (the seed's
    /// `resumeVideoAtTime:withAutoPlay:`), typically after `FailedToPlayToEndTime` once the network is
    /// back. Reports `ResumeBegin`, then `ResumeComplete` or `ResumeFail`; Ready, Play, progress and
    /// cue points already reported are not repeated. A call while a resume runs is refused with an
    /// `Error` lifecycle event.
    public func resumeVideo(at time: MediaTime, autoPlay: Bool) {
        loop.send(.command(.resume(time, autoPlay: autoPlay)))
    }

    /// Waits until every command issued before this call has been handled and every event it produced
    /// has been delivered to the delegate and consumers. Returns at once after `shutdown()`.
    public func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.send(.command(.settle { continuation.resume() }))
        }
    }

    /// Stops everything: terminates the session, ends every event stream. Also happens on deinit.
    public func shutdown() {
        loop.send(.command(.shutdown))
    }
}

/// State the facade, the loop and the dispatcher share. References to the delegate and the controller
/// are weak, so neither is kept alive by the machinery.
final class ControllerShared: Sendable {
    let settings = Mutex(ControllerSettings())
    let currentSession = Mutex<PlaybackSession?>(nil)
    /// Written by the loop only, after each input it handles.
    let availableCommands = Mutex<Set<PlayerCommand>>([])
    private let delegateRef = Mutex(WeakRef<any PlaybackControllerDelegate>())
    private let controllerRef = Mutex(WeakRef<PlaybackController>())

    var delegate: (any PlaybackControllerDelegate)? { delegateRef.withLock { $0.value } }
    func setDelegate(_ delegate: (any PlaybackControllerDelegate)?) { delegateRef.withLock { $0 = WeakRef(delegate) } }
    var controller: PlaybackController? { controllerRef.withLock { $0.value } }
    func setController(_ controller: PlaybackController) { controllerRef.withLock { $0 = WeakRef(controller) } }
}

private struct WeakRef<T>: @unchecked Sendable {
    private weak var object: AnyObject?
    init(_ value: T? = nil) { object = value.map { $0 as AnyObject } }
    var value: T? { object as? T }
}
