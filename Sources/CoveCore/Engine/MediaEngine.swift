import Foundation

/// The media engine behind the controller: something that can build players for URLs.
///
/// The core never imports an engine's C libraries; `CoveGStreamer` provides the real engine and
/// `CoveTesting` a scripted one for controller tests. Engine players are driven only by the
/// controller's event loop, one call at a time.
public protocol MediaEngine: Sendable {
    /// A short name for logs and probe output ("gstreamer", "scripted").
    var name: String { get }
    /// Builds a player for one session. Throws when the engine cannot even build its pipeline
    /// (missing plugins), never for network or media problems: those arrive as events.
    func makePlayer(configuration: EnginePlayerConfiguration) throws(PlaybackError) -> any EnginePlayer
}

/// One engine pipeline, playing one URL for one session.
///
/// Commands return immediately; their outcome arrives on `events`. Methods may be called from any
/// thread but the controller calls them from a single task.
public protocol EnginePlayer: AnyObject, Sendable {
    /// Everything the engine observes, in order. Finishes after `close()`.
    var events: AsyncStream<EngineEvent> { get }

    /// Starts loading. The engine prerolls (first frame decoded) and reports `.prerolled`;
    /// with `playWhenReady` it continues straight to playing.
    func load(playWhenReady: Bool)
    func play()
    func pause()
    /// Flushing seek; completion arrives as `.seekCompleted(id)`. A newer seek supersedes an older one.
    func seek(to position: MediaTime, tolerance: SeekTolerance, id: Int)
    /// Playback rate (> 0). Pitch follows the configuration's `pitchAlgorithm`.
    func setRate(_ rate: Double)
    /// Caps adaptive streaming to variants at or below `bitsPerSecond` (nil removes the cap).
    func setMaxBitrate(_ bitsPerSecond: Int?)
    /// Target duration of media buffered ahead of the playhead (nil restores the engine default).
    func setForwardBufferDuration(_ duration: Duration?)
    /// Chooses which audio and text tracks play; nil text id turns text off.
    func selectTracks(audio: String?, text: String?)
    /// Sets the volume; the engine reports it back with `.volumeChanged` once applied.
    func setVolume(_ volume: AudioVolume)
    /// The cues to draw on the picture now (empty: none), when built with `captionsOnPicture`.
    func showCaptions(_ cues: [TextCue])
    /// Covers the picture with black by `opacity` (0: the picture, 1: black; the controller's shutter
    /// and its fade). Sound is not affected.
    func setShutter(opacity: Double)
    /// Current playback position, when known.
    var position: MediaTime? { get }
    /// Where the playhead may go now (a live window moves).
    var seekableRanges: [TimeRange] { get }
    /// Current playback state as the engine sees it, for diagnostics and buffer policies.
    var status: EngineStatus { get }
    /// The frame on screen as PNG bytes.
    func snapshotPNG() throws(PlaybackError) -> Data
    /// Tears the pipeline down and finishes `events`. Idempotent.
    func close()
    /// True when the player fetches a seek's segment at the variant its bandwidth estimate affords (Cove's
    /// own streaming): the controller then never rebuilds the pipeline to seek on a low variant.
    var choosesSeekVariant: Bool { get }
}

extension EnginePlayer {
    public var choosesSeekVariant: Bool { false }
    /// Engines without volume control ignore it (and report no `.volumeChanged`).
    public func setVolume(_ volume: AudioVolume) {}
    /// Engines that draw no captions ignore them (the cue events are reported either way).
    public func showCaptions(_ cues: [TextCue]) {}
    /// Engines that cannot cover the picture ignore the shutter.
    public func setShutter(opacity: Double) {}
}

/// How the engine presents video: the seed's view strategy, chosen per controller.
public enum VideoOutput: Sendable, Hashable {
    /// Decode every frame but display nothing (servers, probes, CI).
    case headless
    /// Show the video in an X11 window of its own on `display` (`":0"`), or on `$DISPLAY` when nil.
    case x11(display: String?)
    /// Draw into an X11 window the app owns (its window ID, an `XID`): the picture is scaled to the
    /// window, keeping its aspect ratio, and follows the window when it is resized.
    case x11Window(id: UInt, display: String?)
    /// Hand every decoded frame to the app (see `VideoFrameReceiver`).
    case frames(VideoFrameReceiver)
    /// Show the video in a window of its own under a Wayland compositor (`display` is the socket name,
    /// `WAYLAND_DISPLAY` when nil). The window takes no input on GStreamer 1.22 (its Wayland sink has no
    /// navigation events before 1.24).
    case wayland(display: String?)

    /// An X11 window on `$DISPLAY`.
    public static let window = VideoOutput.x11(display: nil)
}

/// Whether sinks wait for the clock.
public enum Pacing: Sendable, Hashable {
    /// Frames are presented at their time: normal playback.
    case realTime
    /// Sinks do not wait for the clock: media plays as fast as it decodes (about 40× real time here).
    /// For tests and probes where wall-clock pacing is not the point.
    case unsynchronized
}

/// Where audio goes.
public enum AudioOutput: Sendable, Hashable {
    /// Decode and discard (headless machines have no sound device).
    case discard
    /// The system's default audio device.
    case system
    /// The sound server's output device with this name (PulseAudio/PipeWire sink name, as
    /// `pactl list short sinks` prints it). A device that cannot be opened fails the load with a
    /// typed `outputUnavailable` error.
    case device(name: String)
    /// Hand the samples to the app (see `AudioSampleReceiver`) instead of a device.
    case samples(AudioSampleReceiver)
}

/// What an engine player is built with.
public struct EnginePlayerConfiguration: Sendable {
    public var url: URL
    public var videoOutput: VideoOutput
    public var audioOutput: AudioOutput
    public var pacing: Pacing
    public var rate: Double
    public var maxBitrate: Int?
    public var forwardBufferDuration: Duration?
    /// Where playback should start (nil: the beginning, or the live edge).
    public var startPosition: MediaTime?
    /// How the engine starts and seeks adaptive streams.
    public var startPolicy: EngineStartPolicy
    /// Draw the cues given to `EnginePlayer.showCaptions` onto the picture.
    public var captionsOnPicture: Bool
    /// The volume to start with.
    public var volume: AudioVolume
    /// The Playback Rights token the video was found under, and which of the stream's requests carry it
    /// (`bcov_auth`); an engine that makes no requests of its own ignores them.
    public var playbackRights: PlaybackRightsToken?
    public var rightsTokenRequests: PlaybackRightsMediaRequests
    /// A picture to draw over the video (a player view's controls): blended into every frame the video
    /// output shows (frames handed to the app too, when their receiver asks for it) and presented by the
    /// engine itself while no frames flow. Engines without overlays ignore it.
    public var videoOverlay: VideoOverlay?
    /// How audio sounds at a rate other than 1: pitch kept (the default) or following the rate.
    public var pitchAlgorithm: AudioPitchAlgorithm = .timeStretch
    /// The source's key systems (its `key_systems`: licence URLs), for protected content.
    public var keySystems: [KeySystem: KeySystemConfiguration] = [:]

    public init(
        url: URL, videoOutput: VideoOutput = .headless, audioOutput: AudioOutput = .discard, pacing: Pacing = .realTime,
        rate: Double = 1, maxBitrate: Int? = nil, forwardBufferDuration: Duration? = nil, startPosition: MediaTime? = nil,
        startPolicy: EngineStartPolicy = .default, captionsOnPicture: Bool = false, volume: AudioVolume = .full,
        playbackRights: PlaybackRightsToken? = nil, rightsTokenRequests: PlaybackRightsMediaRequests = .none, videoOverlay: VideoOverlay? = nil
    ) {
        self.videoOverlay = videoOverlay
        self.playbackRights = playbackRights
        self.rightsTokenRequests = rightsTokenRequests
        self.startPolicy = startPolicy
        self.captionsOnPicture = captionsOnPicture
        self.volume = volume
        self.url = url
        self.videoOutput = videoOutput
        self.audioOutput = audioOutput
        self.pacing = pacing
        self.rate = rate
        self.maxBitrate = maxBitrate
        self.forwardBufferDuration = forwardBufferDuration
        self.startPosition = startPosition
    }
}

/// Cove's start policy for adaptive streams, owned by the SDK rather than left to the engine's
/// wait-for-100 %-buffering default.
public struct EngineStartPolicy: Sendable, Hashable {
    /// Start on the lowest variant (the smallest first segment), then let ABR switch up.
    public var startsOnLowestVariant: Bool
    /// Go to playing once the first frame is decoded and this much media is buffered ahead (or the
    /// first segment is complete, whichever comes first). The GStreamer engine's streaming pushes whole
    /// segments, so it meets this as soon as the first frame is decoded.
    public var bufferToStart: Duration
    /// A seek outside the buffer fetches its first segment at the lowest variant, then ABR climbs again.
    /// For an engine that does not choose a seek's variant itself (`EnginePlayer.choosesSeekVariant`
    /// false; the GStreamer engine's streaming does), the controller opens a fresh player at the target;
    /// needs `startsOnLowestVariant`.
    public var lowVariantSeeks: Bool

    public init(startsOnLowestVariant: Bool = true, bufferToStart: Duration = .milliseconds(500), lowVariantSeeks: Bool = true) {
        self.startsOnLowestVariant = startsOnLowestVariant
        self.bufferToStart = max(bufferToStart, .zero)
        self.lowVariantSeeks = lowVariantSeeks
    }

    public static let `default` = EngineStartPolicy()
    /// The engine's own behaviour: first-listed variant, play at preroll, seeks at the current variant.
    public static let engineDefault = EngineStartPolicy(startsOnLowestVariant: false, bufferToStart: .zero, lowVariantSeeks: false)
}

/// A snapshot of engine state, cheap to read.
public struct EngineStatus: Sendable, Hashable {
    public var position: MediaTime?
    public var duration: MediaTime?
    /// Media buffered ahead of the playhead, when the engine can tell.
    public var bufferedAhead: Duration?
    /// The engine's current bandwidth estimate in bits per second.
    public var bandwidthEstimate: Int?
    public var isPlaying: Bool
    /// Media and manifest bytes the engine has read from the network so far.
    public var bytesRead: Int
    /// Video frames the output showed and dropped (late) since the player started, where the output
    /// counts them (nil: it does not).
    public var renderedFrames: Int?
    public var droppedFrames: Int?

    public init(
        position: MediaTime? = nil, duration: MediaTime? = nil, bufferedAhead: Duration? = nil, bandwidthEstimate: Int? = nil, isPlaying: Bool = false,
        bytesRead: Int = 0
    ) {
        self.position = position
        self.duration = duration
        self.bufferedAhead = bufferedAhead
        self.bandwidthEstimate = bandwidthEstimate
        self.isPlaying = isPlaying
        self.bytesRead = bytesRead
    }
}

/// What the engine learnt once the media prerolled.
public struct EngineMediaInfo: Sendable, Hashable {
    /// nil when the duration is unknown (live).
    public var duration: MediaTime?
    public var seekableRanges: [TimeRange]
    /// True for live streams (HLS without `EXT-X-ENDLIST`).
    public var isLive: Bool

    public init(duration: MediaTime?, seekableRanges: [TimeRange], isLive: Bool) {
        self.duration = duration
        self.seekableRanges = seekableRanges
        self.isLive = isLive
    }
}

/// One elementary stream the engine found.
public struct EngineTrack: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case audio, video, text }
    public var id: String
    public var kind: Kind
    public var language: String?
    public var title: String?
    /// A codec string, RFC 6381 style where it can be derived (`avc1.42c015`, `mp4a.40.2`).
    public var codec: String?
    public var width: Int?
    public var height: Int?

    public init(id: String, kind: Kind, language: String? = nil, title: String? = nil, codec: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.id = id
        self.kind = kind
        self.language = language
        self.title = title
        self.codec = codec
        self.width = width
        self.height = height
    }
}

/// Everything an engine player reports. Times stamped with `wallTime` were taken by the engine
/// thread at the moment it happened (Unix epoch seconds), for accurate traces.
public enum EngineEvent: Sendable, Hashable {
    /// The first frame is decoded and the media is ready to play.
    case prerolled(EngineMediaInfo)
    /// The streams available changed (audio renditions, text tracks, video).
    case tracksChanged([EngineTrack])
    /// The streams now playing.
    case tracksSelected([String])
    /// The pipeline is playing (the clock runs).
    case playing
    /// The pipeline is paused.
    case paused
    /// The first frame after a load or a seek was shown. A play's start frame may come before `.playing`:
    /// a display shows the prerolled frame at once (a paused load's frame counts only once it plays).
    case firstFrame(wallTime: Double)
    /// A seek finished: the new position is prerolled (or the engine refused the seek).
    case seekCompleted(id: Int, succeeded: Bool)
    /// Network buffering level, 0–100.
    case buffering(percent: Int)
    /// A cue of the stream's selected text rendition (in-manifest subtitles), in media time.
    case textCue(TextCue)
    case durationChanged(MediaTime?)
    /// The video frame size changed (rendition switch).
    case videoSizeChanged(width: Int, height: Int)
    /// The adaptive demuxer switched to the variant with this declared bandwidth (its playlist URL, redacted).
    case variantChanged(bandwidth: Int, url: String)
    /// The master playlist's variants, in the order listed.
    case variantsDiscovered([Variant])
    /// A streaming request finished (engines that make their own requests).
    case transferCompleted(MediaTransfer)
    /// Downloads failed but buffered media may still play; playback is not over yet.
    case downloadFailed(PlaybackError)
    /// The pipeline cannot continue.
    case failed(PlaybackError)
    /// The volume now applied to the audio output.
    case volumeChanged(AudioVolume)
    /// Something worth logging that did not stop playback.
    case warning(String)
    case endOfStream
    /// The keys of protected content changed status (a licence arrived, a key expired).
    case keyStatusesChanged(KeySystem, [KeyID: KeyStatus])
}
