import CoveCore
import Foundation

/// The MPRIS view of one controller, as a value: controller events in (`observe`), client requests in
/// (`plan`), the properties to publish and the controller calls to make out. Pure (the caller passes
/// the time), so every rule below is unit-tested without a bus or an engine.
///
/// Rules worth knowing:
/// - Status follows the lifecycle: `Play` → Playing, `Pause` → Paused, `End`, `Fail`,
///   `FailedToPlayToEndTime` and `Terminate` → Stopped. A client's Stop pauses and rewinds; the pause
///   that follows reads Stopped until the next `Play`.
/// - Seeked: a progress report more than `seekedThreshold` away from where the last one extrapolates
///   to is a jump (a seek by anyone, a stall, the end of an ad break), and clients must hear of it.
/// - Previous seeks to the start: the seed SDK's queue has no previous video, so Previous means
///   "from the top", as most players do past the first seconds.
/// - Seek past the end of a known duration is Next (the spec); SetPosition is honoured only for the
///   current track ID and a position within 0…duration.
struct MediaPlayer2Model: Sendable {
    /// A progress report this far from the extrapolated playhead publishes `Seeked`.
    static let seekedThreshold: Duration = .seconds(1)
    /// The URI schemes `OpenUri` plays (published as SupportedUriSchemes).
    static let uriSchemes = ["http", "https", "file"]
    /// What Cove's engine plays (published as SupportedMimeTypes).
    static let mimeTypes = [
        "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "application/dash+xml", "video/mp4", "audio/mp4", "video/mp2t",
    ]

    /// What `observe` asks the caller to tell the bus about the playhead.
    enum PlayheadUpdate: Sendable, Hashable {
        /// The playhead moved as expected (no signal).
        case position(Duration)
        /// The playhead jumped: publish `Seeked`.
        case seeked(Duration)
    }

    private(set) var status: MediaPlayer2PlaybackStatus = .stopped
    private(set) var commands: Set<PlayerCommand>
    private(set) var volume: Double
    private(set) var rate: Double
    var canQuit = false
    var canRaise = false
    private(set) var sessionID: Int?
    private var video: Video?
    private var sourceURL: URL?
    private var duration: Duration?
    /// Set by a client's Stop until the next `Play`.
    private var stopRequested = false
    /// The last reported playhead and when it was reported.
    private var playhead: (position: Duration, at: Duration)?

    init(commands: Set<PlayerCommand> = [], volume: AudioVolume = AudioVolume(level: 1, isMuted: false), rate: Double = 1) {
        self.commands = commands
        self.volume = Self.published(volume)
        self.rate = rate > 0 ? rate : 1
    }

    /// The model of a controller that was already playing `session` when the service attached.
    init(
        commands: Set<PlayerCommand>, volume: AudioVolume, rate: Double, session: (id: Int, video: Video, sourceURL: URL?)?, status: EngineStatus?,
        at now: Duration
    ) {
        self.init(commands: commands, volume: volume, rate: rate)
        guard let session else { return }
        sessionID = session.id
        video = session.video
        sourceURL = session.sourceURL
        duration = status?.duration?.duration
        if status?.isPlaying == true { self.status = .playing }
        if let position = status?.position?.duration { playhead = (position, now) }
    }

    var metadata: MediaPlayer2Metadata? {
        guard let sessionID, let video else { return nil }
        return MediaPlayer2Metadata(video: video, sourceURL: sourceURL, sessionID: sessionID, duration: duration)
    }

    /// The playhead the last report extrapolates to at `now`, if there was one.
    func position(at now: Duration) -> Duration? {
        guard let playhead else { return nil }
        guard status == .playing else { return playhead.position }
        return playhead.position + (now - playhead.at) * rate
    }

    var snapshot: MediaPlayer2Snapshot {
        MediaPlayer2Snapshot(
            status: status, rate: rate, volume: volume, canGoNext: commands.contains(.advanceToNext), canGoPrevious: commands.contains(.seek),
            canPlay: commands.contains(.play), canPause: commands.contains(.pause), canSeek: commands.contains(.seek), canQuit: canQuit,
            canRaise: canRaise, metadata: metadata)
    }

    // MARK: Controller events

    /// Takes one controller event; returns what the bus must learn about the playhead, if anything.
    mutating func observe(_ observation: MediaPlayer2Observation, at now: Duration) -> PlayheadUpdate? {
        switch observation {
        case .sessionStarted(let id, let video, let sourceURL):
            sessionID = id
            self.video = video
            self.sourceURL = sourceURL
            duration = nil
            stopRequested = false
            playhead = (.zero, now)
            return .position(.zero)
        case .lifecycle(let session, let kind):
            guard session == sessionID else { return nil }
            switch kind {
            case .play, .bumperResume:
                stopRequested = false
                setStatus(.playing, at: now)
            case .pause, .bumperPause:
                setStatus(stopRequested ? .stopped : .paused, at: now)
            case .end, .fail, .failedToPlayToEndTime, .terminate:
                setStatus(.stopped, at: now)
            default:
                break
            }
            return nil
        case .progress(let session, let time):
            guard session == sessionID, let position = time.duration else { return nil }
            let expected = self.position(at: now)
            playhead = (position, now)
            if let expected, position - expected > Self.seekedThreshold || expected - position > Self.seekedThreshold { return .seeked(position) }
            return .position(position)
        case .duration(let session, let duration):
            guard session == sessionID else { return nil }
            self.duration = duration
            return nil
        case .volume(let session, let volume):
            guard session == sessionID else { return nil }
            self.volume = Self.published(volume)
            return nil
        case .commands(let commands):
            self.commands = commands
            return nil
        case .ended:
            setStatus(.stopped, at: now)
            commands = []
            sessionID = nil
            video = nil
            playhead = nil
            return nil
        }
    }

    /// A seek the service asked for landed at `target`. The controller reports the playhead after a
    /// seek, but not always (a seek while paused can land without a progress report that differs from
    /// the last one), so the playhead moves here too: `Seeked` unless a progress report already told.
    /// Nil when the session changed since the seek was asked for (the new track starts from its own playhead).
    mutating func seekLanded(at target: Duration, in session: Int?, at now: Duration) -> PlayheadUpdate? {
        guard session == sessionID else { return nil }
        let expected = position(at: now)
        playhead = (target, now)
        guard let expected, target - expected <= Self.seekedThreshold, expected - target <= Self.seekedThreshold else { return .seeked(target) }
        return .position(target)
    }

    /// The rate the controller plays at (it has no event for it: the router reads it with each event).
    mutating func setRate(_ rate: Double, at now: Duration) {
        guard rate > 0, rate != self.rate else { return }
        foldPlayhead(at: now)
        self.rate = rate
    }

    // MARK: Client requests

    /// What to do for a client's request. Changes the model where the request itself decides a
    /// property (Stop's status, a client's volume and rate), so the answer is published at once.
    mutating func plan(_ request: MediaPlayer2Request, at now: Duration) -> [MediaPlayer2Action] {
        switch request {
        case .playPause:
            return [status == .playing ? .pause : .play]
        case .play:
            return [.play]
        case .pause:
            return [.pause]
        case .stop:
            stopRequested = true
            setStatus(.stopped, at: now)
            return commands.contains(.seek) ? [.pause, .seek(.zero)] : [.pause]
        case .next:
            return commands.contains(.advanceToNext) ? [.advanceToNext] : [.ignore("Next: the queue has no next video")]
        case .previous:
            // The seed SDK's queue has no previous video: Previous restarts the current one.
            return commands.contains(.seek) ? [.seek(.zero)] : [.ignore("Previous: the current video cannot seek now")]
        case .seek(let offset, let from):
            guard commands.contains(.seek) else { return [.ignore("Seek: the current video cannot seek now")] }
            let target = max(.zero, from + offset)
            if let length = metadata?.length, target > length {
                return commands.contains(.advanceToNext) ? [.advanceToNext] : [.ignore("Seek past the end of the last video")]
            }
            return [.seek(MediaTime(target))]
        case .setPosition(let trackID, let position):
            guard let metadata, trackID == metadata.trackID else {
                return [.ignore("SetPosition for \(trackID), which is not the current track (\(metadata?.trackID ?? "none"))")]
            }
            guard position >= .zero, metadata.length.map({ position <= $0 }) ?? true else {
                return [.ignore("SetPosition to \(position), outside the video (0…\(metadata.length.map { "\($0)" } ?? "?"))")]
            }
            guard commands.contains(.seek) else { return [.ignore("SetPosition: the current video cannot seek now")] }
            return [.seek(MediaTime(position))]
        case .openURI(let text):
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), Self.uriSchemes.contains(scheme) else {
                return [.ignore("OpenUri: not a URL Cove plays: \(Redaction.redact(urlString: text))")]
            }
            return [.open(url)]
        case .setVolume(let volume):
            let level = min(max(volume, 0), 1)
            self.volume = level
            return [.setVolume(level)]
        case .setRate(let rate):
            guard commands.contains(.changeRate) else { return [.ignore("Rate: the rate cannot change now (an ad, a bumper, or nothing loaded)")] }
            setRate(rate, at: now)
            return [.setRate(rate)]
        case .raise:
            return canRaise ? [.raise] : [.ignore("Raise: the app set no onRaise")]
        case .quit:
            return canQuit ? [.quit] : [.ignore("Quit: the app set no onQuit")]
        }
    }

    // MARK: Helpers

    private mutating func setStatus(_ status: MediaPlayer2PlaybackStatus, at now: Duration) {
        guard status != self.status else { return }
        foldPlayhead(at: now)
        self.status = status
    }

    /// Fixes the extrapolated playhead before what it extrapolates with (status, rate) changes.
    private mutating func foldPlayhead(at now: Duration) {
        if let position = position(at: now) { playhead = (position, now) }
    }

    /// MPRIS has no mute: a muted controller publishes 0, which is what the listener hears.
    private static func published(_ volume: AudioVolume) -> Double {
        volume.isMuted ? 0 : min(max(volume.level, 0), 1)
    }
}
