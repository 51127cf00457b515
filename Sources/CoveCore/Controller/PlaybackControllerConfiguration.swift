import Logging

/// How a controller is built: its clock, its outputs, its cadence. Fixed for the controller's life.
public struct PlaybackControllerConfiguration: Sendable {
    /// How often `progress` is reported while playing.
    public var progressInterval: Duration
    public var videoOutput: VideoOutput
    public var audioOutput: AudioOutput
    /// `.unsynchronized` plays faster than real time (tests, probes of whole streams).
    public var pacing: Pacing
    /// A live stream whose seekable window is at least this long is reported as `liveDVR`.
    public var liveDVRMinimumWindow: Duration
    /// A bumper that stalls this long is skipped (`BumperFailedToPlayToEndTime`) so the content can start.
    public var bumperStallTimeout: Duration
    /// How often and how patiently the controller rebuilds the pipeline after a network failure.
    public var retryPolicy: RetryPolicy
    /// How the engine starts adaptive streams and seeks outside the buffer.
    public var startPolicy: EngineStartPolicy
    /// Uniform randomness in 0..<1 for retry jitter; inject a constant for deterministic tests.
    public var random: @Sendable () -> Double
    /// The clock behind progress reporting and every timer; inject a test clock to drive time by hand.
    public var clock: any Clock<Duration>
    public var logger: Logger
    /// Where the viewer's caption choice is remembered across sessions (nil: not remembered). The
    /// choice the app makes through `selectTextTrack` is saved; each new session applies it.
    public var captionPreferences: CaptionPreferences?
    /// The selected text track's cues are drawn onto the picture by the engine (windows and frame
    /// callbacks); the cue events are reported either way, for apps that draw captions themselves.
    public var captionsOnPicture: Bool
    /// Which of a stream's requests carry the Playback Rights token of the video (`bcov_auth`), when it
    /// was found under one (`Video.playbackRights`): none by default, keys or every request when the
    /// rights service guards them.
    public var rightsTokenRequests: PlaybackRightsMediaRequests
    /// A picture drawn over the video of every session (a player view's controls; see `VideoOverlay`).
    public var videoOverlay: VideoOverlay?
    /// Makes the thumbnail source of a video with a thumbnail track when no provider attached one (see
    /// `ThumbnailSourceFactory`). Nil: the engine's, when the engine makes them (`GStreamerEngine` does),
    /// so thumbnails are on by default as in the seed; `thumbnailSeekingEnabled` turns them off.
    public var thumbnailSourceFactory: (any ThumbnailSourceFactory)?
    /// Where the delegate, session consumers and completion handlers are called (see
    /// `CallbackExecutor`): the controller's delivery task by default; `.mainActor`, or the GLib main
    /// context (`GLibMainContext.callbackExecutor`), for the seed's "always on the main thread".
    public var callbackExecutor: CallbackExecutor = .deliveryTask

    public init(
        progressInterval: Duration = .milliseconds(250), videoOutput: VideoOutput = .headless, audioOutput: AudioOutput = .discard,
        pacing: Pacing = .realTime, liveDVRMinimumWindow: Duration = .seconds(60), bumperStallTimeout: Duration = .seconds(8),
        retryPolicy: RetryPolicy = .default, startPolicy: EngineStartPolicy = .default, random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "cove"), captionPreferences: CaptionPreferences? = nil,
        captionsOnPicture: Bool = false, rightsTokenRequests: PlaybackRightsMediaRequests = .none, videoOverlay: VideoOverlay? = nil
    ) {
        self.videoOverlay = videoOverlay
        self.rightsTokenRequests = rightsTokenRequests
        self.captionsOnPicture = captionsOnPicture
        self.captionPreferences = captionPreferences
        self.retryPolicy = retryPolicy
        self.startPolicy = startPolicy
        self.random = random
        self.progressInterval = progressInterval > .zero ? progressInterval : .milliseconds(250)
        self.videoOutput = videoOutput
        self.audioOutput = audioOutput
        self.pacing = pacing
        self.liveDVRMinimumWindow = liveDVRMinimumWindow
        self.bumperStallTimeout = bumperStallTimeout
        self.clock = clock
        self.logger = logger
    }
}

/// Settings the app may change at any time. The facade keeps the app's copy (what its getters return)
/// and sends every change to the loop as a command, so a setting is ordered with the commands around it
/// (a `seek` issued just before it, a `setVideos` just after); the loop decides from its own copy.
struct ControllerSettings: Sendable, Equatable {
    /// A resolution cap: either side may be open.
    struct ResolutionCap: Sendable, Equatable {
        var width: Int?
        var height: Int?
    }

    var autoPlay = false
    var autoAdvance = false
    var rate = 1.0
    var peakBitrate: Int?
    var maximumResolution: ResolutionCap?
    var bufferOptimizer = BufferOptimizer.default
    var thumbnailSeekingEnabled = true
    var adsDisabled = false
    var volume = AudioVolume.full
    var shutter = false
    var pitchAlgorithm = AudioPitchAlgorithm.timeStretch
    var shutterFadeTime = Duration.zero
}
