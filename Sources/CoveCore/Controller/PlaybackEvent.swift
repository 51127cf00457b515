/// Everything a playback controller reports, as one value type.
///
/// The controller's `events` stream yields these in order; the delegate and session consumers receive
/// the same events through their callbacks. Session-scoped events carry the session they belong to.
public enum PlaybackEvent: Sendable, CustomStringConvertible {
    /// The controller moved to a new session (one per video).
    case sessionAdvanced(PlaybackSession)
    case lifecycle(PlaybackSession, LifecycleEvent)
    /// Periodic playhead position while playing, and after seeks.
    case progress(PlaybackSession, MediaTime)
    /// The content duration; nil when unknown (live).
    case durationChanged(PlaybackSession, Duration?)
    /// Cue points passed since the last report: everything in `(previousTime, currentTime]`.
    case cuePointsPassed(PlaybackSession, CuePointPassage)
    case seekableRangesChanged(PlaybackSession, [TimeRange])
    case mediaTypeDetermined(PlaybackSession, MediaType)
    case videoTypeDetermined(PlaybackSession, VideoType)
    /// Codecs of the playing streams, RFC 6381 style (`avc1.42c015`, `mp4a.40.2`).
    case codecsDetermined(PlaybackSession, [String])
    case audioTrackSelected(PlaybackSession, MediaTrack?)
    case textTrackSelected(PlaybackSession, MediaTrack?)
    /// The cues of the selected sidecar text track active at the position changed.
    case textCuesChanged(PlaybackSession, TextCueChange)
    /// The adaptive stream switched variant: from, to and why (ABR, a cap, a seek, the start).
    case variantChanged(PlaybackSession, VariantChange)
    /// The master playlist's variants became known (adaptive streams only).
    case variantsDiscovered(PlaybackSession, VariantLadder)
    /// The engine finished a streaming request (playlist, segment): exact bytes and timing.
    case mediaTransferred(PlaybackSession, MediaTransfer)
    /// The forward-buffer target the buffer optimizer set on the engine.
    case forwardBufferChanged(PlaybackSession, Duration)
    /// The session's audio volume or mute changed (as the engine applied it).
    case volumeChanged(PlaybackSession, AudioVolume)
    /// The controller is about to retry after a failure (rebuilding the engine pipeline).
    case retry(PlaybackSession, RetryAttempt)
    /// The keys of protected content changed status under a key system (a licence arrived, a key
    /// expired or was restricted), as EME's `keystatuseschange`.
    case keyStatusesChanged(PlaybackSession, KeySystem, [KeyID: KeyStatus])
    /// A frame reached the screen: the first after loading, or the first at a seek target. Timing for
    /// QoE measurement, stamped by the engine thread.
    case framePresented(PlaybackSession, FramePresentation)
    /// An ad break started (server-side ads: the playhead entered it). Ad events come from a plugin
    /// such as SSAI; progress, duration and cue points then stay in content time.
    case adSequenceEntered(PlaybackSession, AdSequence)
    case adSequenceExited(PlaybackSession, AdSequence)
    case adEntered(PlaybackSession, Ad)
    case adExited(PlaybackSession, Ad)
    /// The playhead's time into the current ad.
    case adProgressed(PlaybackSession, AdProgress)
    case adPaused(PlaybackSession, Ad)
    case adResumed(PlaybackSession, Ad)
    /// The viewer skipped the ad (after its skip offset).
    case adSkipped(PlaybackSession, Ad)
    /// The stream-concurrency service refused this session because the viewer already watches as many
    /// streams as the token allows (`climit`): the viewer's active sessions, as the service listed them
    /// (the seed's `didReachMaxConcurrency`). The session then fails with `playbackRightsDenied`.
    case maxConcurrencyReached(PlaybackSession, sessions: [JSONValue])
    /// The last video of the queue ended (only with `autoAdvance`).
    case playlistCompleted([Video])
    /// No video in the queue has a playable source.
    case noPlayableVideosFound([Video])
    case videoInserted(Video, index: Int)
    case videoInsertionFailed(Video, PlaybackError)
    /// The commands the controller can carry out now changed (`PlaybackController.availableCommands`).
    case availableCommandsChanged(Set<PlayerCommand>)

    /// The event with its error's severity set by what it reports: a failed insertion leaves the queue
    /// playing (recoverable); a lifecycle event's error as `LifecycleEvent.errorSeverity` says.
    func withErrorSeverity() -> PlaybackEvent {
        switch self {
        case .lifecycle(let session, let event): .lifecycle(session, event.withErrorSeverity())
        case .videoInsertionFailed(let video, let error): .videoInsertionFailed(video, error.with(severity: .recoverable))
        default: self
        }
    }

    /// The session the event belongs to, if any.
    public var session: PlaybackSession? {
        switch self {
        case .sessionAdvanced(let s), .lifecycle(let s, _), .progress(let s, _), .durationChanged(let s, _),
            .cuePointsPassed(let s, _), .seekableRangesChanged(let s, _), .mediaTypeDetermined(let s, _),
            .videoTypeDetermined(let s, _), .codecsDetermined(let s, _), .audioTrackSelected(let s, _),
            .textTrackSelected(let s, _), .textCuesChanged(let s, _), .variantChanged(let s, _), .framePresented(let s, _), .variantsDiscovered(let s, _),
            .mediaTransferred(let s, _),
            .forwardBufferChanged(let s, _), .volumeChanged(let s, _), .retry(let s, _), .keyStatusesChanged(let s, _, _), .adSequenceEntered(let s, _),
            .adSequenceExited(let s, _),
            .adEntered(let s, _), .adExited(let s, _), .adProgressed(let s, _), .adPaused(let s, _), .adResumed(let s, _), .adSkipped(let s, _),
            .maxConcurrencyReached(let s, _):
            return s
        case .playlistCompleted, .noPlayableVideosFound, .videoInserted, .videoInsertionFailed, .availableCommandsChanged:
            return nil
        }
    }

    /// The lifecycle event, when this is one.
    public var lifecycleEvent: LifecycleEvent? {
        if case .lifecycle(_, let event) = self { return event }
        return nil
    }

    /// A short stable name for traces and logs.
    public var name: String {
        switch self {
        case .sessionAdvanced: return "SessionAdvanced"
        case .lifecycle(_, let e): return e.name
        case .progress: return "Progress"
        case .durationChanged: return "DurationChanged"
        case .cuePointsPassed: return "CuePoints"
        case .seekableRangesChanged: return "SeekableRanges"
        case .mediaTypeDetermined: return "MediaType"
        case .videoTypeDetermined: return "VideoType"
        case .codecsDetermined: return "Codecs"
        case .audioTrackSelected: return "AudioTrack"
        case .textTrackSelected: return "TextTrack"
        case .textCuesChanged: return "TextCues"
        case .variantChanged: return "Variant"
        case .variantsDiscovered: return "Variants"
        case .mediaTransferred: return "Transfer"
        case .forwardBufferChanged: return "ForwardBuffer"
        case .volumeChanged: return "Volume"
        case .retry: return "Retry"
        case .keyStatusesChanged: return "KeyStatuses"
        case .framePresented(_, let f): return f.cause.eventName
        case .adSequenceEntered: return "AdSequenceEnter"
        case .adSequenceExited: return "AdSequenceExit"
        case .adEntered: return "AdEnter"
        case .adExited: return "AdExit"
        case .adProgressed: return "AdProgress"
        case .adPaused: return "AdPause"
        case .adResumed: return "AdResume"
        case .adSkipped: return "AdSkipped"
        case .maxConcurrencyReached: return "MaxConcurrencyReached"
        case .playlistCompleted: return "PlaylistCompleted"
        case .noPlayableVideosFound: return "NoPlayableVideosFound"
        case .videoInserted: return "VideoInserted"
        case .videoInsertionFailed: return "VideoInsertionFailed"
        case .availableCommandsChanged: return "AvailableCommands"
        }
    }

    public var description: String {
        switch self {
        case .sessionAdvanced(let s): return "SessionAdvanced(\(s.id))"
        case .lifecycle(_, let e): return e.description
        case .progress(_, let t): return "Progress(\(t))"
        case .durationChanged(_, let d): return "DurationChanged(\(d.map { "\($0)" } ?? "unknown"))"
        case .cuePointsPassed(_, let p): return "CuePoints(\(p.previousTime)→\(p.currentTime): \(p.cuePoints.count))"
        case .seekableRangesChanged(_, let r): return "SeekableRanges(\(r))"
        case .mediaTypeDetermined(_, let m): return "MediaType(\(m))"
        case .videoTypeDetermined(_, let v): return "VideoType(\(v))"
        case .codecsDetermined(_, let c): return "Codecs(\(c.joined(separator: ",")))"
        case .audioTrackSelected(_, let t): return "AudioTrack(\(t?.displayName ?? "none"))"
        case .textTrackSelected(_, let t): return "TextTrack(\(t?.displayName ?? "none"))"
        case .textCuesChanged(_, let c): return "TextCues(\(c.track.id) at \(c.position): \(c.cues.map(\.text)))"
        case .variantChanged(_, let v): return "Variant(\(v.from.map { "\($0.bandwidth)" } ?? "-")→\(v.to.bandwidth), \(v.reason.rawValue))"
        case .variantsDiscovered(_, let l): return "Variants(\(l.variants.map { String($0.bandwidth) }.joined(separator: ",")))"
        case .mediaTransferred(_, let t): return "Transfer(\(t.kind.rawValue) \(t.status) \(t.bytes) bytes in \(t.duration))"
        case .forwardBufferChanged(_, let d): return "ForwardBuffer(\(d))"
        case .volumeChanged(_, let v): return "Volume(\(v.level)\(v.isMuted ? ", muted" : ""))"
        case .keyStatusesChanged(_, let system, let statuses):
            return "KeyStatuses(\(system): \(statuses.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }.joined(separator: ", ")))"
        case .retry(_, let r): return "Retry(\(r.kind.rawValue) \(r.attempt)/\(r.maximumAttempts.map(String.init) ?? "∞") in \(r.delay): \(r.error.code.name))"
        case .framePresented(_, let f): return "\(f.cause.eventName)(\(f.wallTime))"
        case .adSequenceEntered(_, let q): return "AdSequenceEnter(\(q))"
        case .adSequenceExited(_, let q): return "AdSequenceExit(\(q))"
        case .adEntered(_, let a): return "AdEnter(\(a))"
        case .adExited(_, let a): return "AdExit(\(a))"
        case .adProgressed(_, let p): return "AdProgress(\(p.ad.sequenceIndex).\(p.ad.index) \(p.time))"
        case .adPaused(_, let a): return "AdPause(\(a))"
        case .adResumed(_, let a): return "AdResume(\(a))"
        case .adSkipped(_, let a): return "AdSkipped(\(a))"
        case .maxConcurrencyReached(_, let sessions): return "MaxConcurrencyReached(\(sessions.count) active)"
        case .playlistCompleted(let v): return "PlaylistCompleted(\(v.count))"
        case .noPlayableVideosFound(let v): return "NoPlayableVideosFound(\(v.count))"
        case .videoInserted(_, let i): return "VideoInserted(\(i))"
        case .videoInsertionFailed(_, let e): return "VideoInsertionFailed(\(e))"
        case .availableCommandsChanged(let commands): return "AvailableCommands(\(commands.map(\.rawValue).sorted().joined(separator: ",")))"
        }
    }
}

/// Cue points that playback passed, with the interval they were collected over.
public struct CuePointPassage: Sendable, Hashable {
    /// Exclusive lower bound: `.before` on first play.
    public let previousTime: MediaTime
    /// Inclusive upper bound: `.after` at the end of the content.
    public let currentTime: MediaTime
    public let cuePoints: CuePointCollection

    public init(previousTime: MediaTime, currentTime: MediaTime, cuePoints: CuePointCollection) {
        self.previousTime = previousTime
        self.currentTime = currentTime
        self.cuePoints = cuePoints
    }
}

/// Whether a stream has pictures (the seed's `BCOVSourceMediaType`).
public enum MediaType: String, Sendable, Hashable, CustomStringConvertible {
    case audio = "Audio"
    case audioVideo = "AudioVideo"
    public var description: String { rawValue }
}

/// On demand or live (the seed's `BCOVVideoType`).
public enum VideoType: String, Sendable, Hashable, CustomStringConvertible {
    case vod = "VOD"
    case live = "Live"
    /// Live with a seekable window at least `PlaybackControllerConfiguration.liveDVRMinimumWindow` long.
    case liveDVR = "LiveDVR"
    public var description: String { rawValue }
}

/// When a frame reached the screen, and why it was a notable one.
public struct FramePresentation: Sendable, Hashable {
    public enum Cause: String, Sendable, Hashable {
        /// The first frame after the session started playing.
        case start
        /// The first frame at a seek target.
        case seek
        /// The first frame of the bumper that plays before the content.
        case bumper
        /// The first frame after the controller rebuilt the pipeline (a retry or `resumeVideo(at:)`).
        case resume
        /// The first frame of a preloaded video, right after the previous one ended.
        case transition

        var eventName: String {
            switch self {
            case .start: return "FirstFrame"
            case .seek: return "SeekFrame"
            case .bumper: return "BumperFrame"
            case .resume: return "ResumeFrame"
            case .transition: return "TransitionFrame"
            }
        }
    }

    public let cause: Cause
    /// Unix-epoch seconds.
    public let wallTime: Double

    public init(cause: Cause, wallTime: Double) {
        self.cause = cause
        self.wallTime = wallTime
    }
}
