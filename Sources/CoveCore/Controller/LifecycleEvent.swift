/// A change in a session's playback lifecycle (the seed's `BCOVPlaybackSessionLifecycleEvent`).
///
/// `name` gives the seed's event name (`kBCOVPlaybackSessionLifecycleEventReady` → `"Ready"`), for
/// logs, traces and apps that switch on strings.
public enum LifecycleEvent: Sendable, Hashable, CustomStringConvertible {
    /// The media is loaded and the first frame is decoded; seeking is possible from here on.
    case ready
    /// The session could not load after the retry policy's attempts: it does not play on its own. Only
    /// the app can try it again, with `resumeVideo(at:autoPlay:)` (a fresh load at that time) or by
    /// setting the video again. With `isAutoAdvance` the queue moves on to the next video.
    case fail(PlaybackError)
    /// `play()` was called.
    case playRequest
    /// Playback started (the engine clock is running).
    case play
    /// `pause()` was called.
    case pauseRequest
    /// Playback paused.
    case pause
    /// The content played to its end.
    case end
    /// The buffer ran dry: on load, after a seek, or during a stall.
    case bufferEmpty
    /// Enough media is buffered to play.
    case likelyToKeepUp
    /// Normal playback stopped for lack of data (not reported for load or seek).
    case stalled
    /// Playback resumed after a stall.
    case recovered
    /// Playback stopped mid-stream and will not continue on its own.
    case failedToPlayToEndTime(PlaybackError)
    /// The session was disposed (replaced, advanced past, or the controller shut down).
    case terminate
    /// A problem that did not stop playback (a failed side download, a plugin error).
    case error(PlaybackError)
    /// The bumper started, before the content.
    case bumperEnter(Video)
    /// The bumper ended (or failed); the content follows.
    case bumperExit(Video)
    /// The bumper's playhead, periodically while it plays.
    case bumperProgress(MediaTime)
    case bumperPause
    case bumperResume
    /// The bumper could not play to its end; the content plays anyway.
    case bumperFailedToPlayToEndTime(PlaybackError)
    /// `resumeVideo(at:autoPlay:)` started rebuilding the player.
    /// Content is about to give way to an ad break (reported just before `AdSequenceEnter`).
    case willPauseForAd
    case resumeBegin
    /// The rebuilt player is ready at the requested time.
    case resumeComplete
    /// The rebuilt player could not load; call `resumeVideo(at:autoPlay:)` again later.
    case resumeFail(PlaybackError)
    /// The thumbnail track or one of its images could not be loaded or used (the seed's
    /// `ThumbnailAssetFailedToLoad`); playback is unaffected. Reported once per failed asset and session.
    case thumbnailAssetFailedToLoad(ThumbnailError)
    /// An event defined by a plugin or the app.
    case custom(name: String, properties: JSONObject)

    /// The seed's event name without its `kBCOVPlaybackSessionLifecycleEvent` prefix.
    public var name: String {
        switch self {
        case .ready: return "Ready"
        case .fail: return "Fail"
        case .playRequest: return "PlayRequest"
        case .play: return "Play"
        case .pauseRequest: return "PauseRequest"
        case .pause: return "Pause"
        case .end: return "End"
        case .bufferEmpty: return "PlaybackBufferEmpty"
        case .likelyToKeepUp: return "PlaybackLikelyToKeepUp"
        case .stalled: return "PlaybackStalled"
        case .recovered: return "PlaybackRecovered"
        case .failedToPlayToEndTime: return "FailedToPlayToEndTime"
        case .terminate: return "Terminate"
        case .error: return "Error"
        case .bumperEnter: return "BumperEnter"
        case .bumperExit: return "BumperExit"
        case .bumperProgress: return "BumperProgress"
        case .bumperPause: return "BumperPause"
        case .bumperResume: return "BumperResume"
        case .bumperFailedToPlayToEndTime: return "BumperFailedToPlayToEndTime"
        case .willPauseForAd: return "WillPauseForAd"
        case .resumeBegin: return "ResumeBegin"
        case .resumeComplete: return "ResumeComplete"
        case .resumeFail: return "ResumeFail"
        case .thumbnailAssetFailedToLoad: return "ThumbnailAssetFailedToLoad"
        case .custom(let name, _): return name
        }
    }

    /// What kind of lifecycle event this is, without its payload: for matching (`event.kind == .ready`)
    /// where the seed's string names would only be checked at run time.
    public enum Kind: Hashable, Sendable {
        case ready, fail, playRequest, play, pauseRequest, pause, end, bufferEmpty, likelyToKeepUp, stalled, recovered
        case failedToPlayToEndTime, terminate, error
        case bumperEnter, bumperExit, bumperProgress, bumperPause, bumperResume, bumperFailedToPlayToEndTime
        case willPauseForAd, resumeBegin, resumeComplete, resumeFail, thumbnailAssetFailedToLoad
        /// A plugin's or the app's event, by its name.
        case custom(String)
    }

    public var kind: Kind {
        switch self {
        case .ready: .ready
        case .fail: .fail
        case .playRequest: .playRequest
        case .play: .play
        case .pauseRequest: .pauseRequest
        case .pause: .pause
        case .end: .end
        case .bufferEmpty: .bufferEmpty
        case .likelyToKeepUp: .likelyToKeepUp
        case .stalled: .stalled
        case .recovered: .recovered
        case .failedToPlayToEndTime: .failedToPlayToEndTime
        case .terminate: .terminate
        case .error: .error
        case .bumperEnter: .bumperEnter
        case .bumperExit: .bumperExit
        case .bumperProgress: .bumperProgress
        case .bumperPause: .bumperPause
        case .bumperResume: .bumperResume
        case .bumperFailedToPlayToEndTime: .bumperFailedToPlayToEndTime
        case .willPauseForAd: .willPauseForAd
        case .resumeBegin: .resumeBegin
        case .resumeComplete: .resumeComplete
        case .resumeFail: .resumeFail
        case .thumbnailAssetFailedToLoad: .thumbnailAssetFailedToLoad
        case .custom(let name, _): .custom(name)
        }
    }

    /// The error carried by `fail`, `failedToPlayToEndTime`, `bumperFailedToPlayToEndTime`, `error`,
    /// `resumeFail` and `thumbnailAssetFailedToLoad` (as its `playbackError`).
    public var error: PlaybackError? {
        switch self {
        case .fail(let e), .failedToPlayToEndTime(let e), .bumperFailedToPlayToEndTime(let e), .error(let e), .resumeFail(let e): return e
        case .thumbnailAssetFailedToLoad(let e): return e.playbackError.with(severity: errorSeverity ?? .recoverable)
        default: return nil
        }
    }

    /// The severity the controller reports this event's error with: `fail`, `failedToPlayToEndTime` and
    /// `resumeFail` stop playback until the app acts; after the others Cove carries on by itself (the
    /// content plays without the bumper, without ads, without thumbnails).
    public var errorSeverity: PlaybackError.Severity? {
        switch self {
        case .fail, .failedToPlayToEndTime, .resumeFail: .fatal
        case .error, .bumperFailedToPlayToEndTime, .thumbnailAssetFailedToLoad: .recoverable
        default: nil
        }
    }

    /// The event with its error's severity set to `errorSeverity`: whoever built the error (the engine,
    /// a plugin), the event it travels in says whether playback goes on.
    func withErrorSeverity() -> LifecycleEvent {
        // `errorSeverity` is the one table; this only puts its answer into the error.
        guard let severity = errorSeverity else { return self }
        switch self {
        case .fail(let e): return .fail(e.with(severity: severity))
        case .failedToPlayToEndTime(let e): return .failedToPlayToEndTime(e.with(severity: severity))
        case .resumeFail(let e): return .resumeFail(e.with(severity: severity))
        case .error(let e): return .error(e.with(severity: severity))
        case .bumperFailedToPlayToEndTime(let e): return .bumperFailedToPlayToEndTime(e.with(severity: severity))
        // A thumbnail failure carries a `ThumbnailError`; `error` converts it with this severity.
        default: return self
        }
    }

    public var description: String {
        if let error { return "\(name)(\(error))" }
        return name
    }
}
