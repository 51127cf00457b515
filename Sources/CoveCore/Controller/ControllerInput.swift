/// Everything the controller loop reacts to, funnelled into one ordered stream: app commands, engine
/// events, finished session preparations and clock ticks.
enum ControllerInput: Sendable {
    case command(Command)
    case engine(sessionID: Int, EngineChannel, EngineEvent)
    /// The content's plan, and the bumper's when the video has one that still has to play.
    case prepared(preparationID: Int, Result<SessionPlan, PlaybackError>, bumper: Result<SessionPlan, PlaybackError>?)
    /// A session's timer fired; it counts only if `arming` is still the table's (`TimerTable.fired`).
    case timerFired(sessionID: Int, LoopTimer, arming: Int)
    /// A session's thumbnail track or image failed (reported once per asset by the session).
    case thumbnailAssetFailed(sessionID: Int, ThumbnailError)
    /// The next video's plan for preloading.
    case preloadPrepared(preparationID: Int, Result<SessionPlan, PlaybackError>)

    /// Which of a session's engine players an event came from.
    enum EngineChannel: Sendable {
        /// The content pipeline; `generation` tells a rebuilt pipeline's events from the old one's.
        case content(generation: Int)
        case bumper
    }

    enum Command: Sendable {
        case setVideos([Video])
        case advanceToNext
        case insert(Video, after: Int)
        case play
        case pause
        case seek(MediaTime, SeekTolerance, (@Sendable (Bool) -> Void)?)
        /// A hooks-made seek of the engine to an engine time (not passed to the hooks again).
        case seekEngine(sessionID: Int, MediaTime, (@Sendable (Bool) -> Void)?)
        /// An app seek made through a plugin API for one session.
        case seekSession(sessionID: Int, MediaTime, (@Sendable (Bool) -> Void)?)
        /// An event a plugin reports for its session.
        case report(sessionID: Int, PlaybackEvent)
        /// A plugin offers text tracks for the interstitial playing now (empty: withdraws them).
        case offerTextTracks(sessionID: Int, [SidecarTextTrack])
        /// A plugin stops its session for good (a rights service refused it).
        case failSession(sessionID: Int, PlaybackError)
        /// The app changed a setting: the loop's copy becomes `settings`, and what changed takes effect
        /// (the rate, the controller's volume, the bitrate caps) in order with the other commands.
        case updateSettings(ControllerSettings)
        /// One session's own volume (nil: follow the controller's again).
        case setSessionVolume(sessionID: Int, AudioVolume?)
        case resume(MediaTime, autoPlay: Bool)
        case selectTrack(sessionID: Int, kind: MediaTrack.Kind, trackID: String?)
        case addConsumer(any PlaybackSessionConsumer)
        case removeConsumer(ObjectIdentifier)
        case terminateSession(Int)
        /// Runs `done` after everything before it has been handled and delivered.
        case settle(@Sendable () -> Void)
        case shutdown
    }
}

extension ControllerInput {
    /// Answers whoever waits on this input when the loop will never handle it (it has shut down).
    func abandon() {
        switch self {
        case .command(.settle(let done)): done()
        case .command(.seek(_, _, let completion)), .command(.seekEngine(_, _, let completion)), .command(.seekSession(_, _, let completion)):
            completion?(false)
        default: break
        }
    }
}
