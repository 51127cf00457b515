/// A session's play intent: whether the app wants playback, whether the engine's clock runs, whether the
/// controller reported `Play` (and not `Pause` since), whether playback ever started, and what holds it
/// when the app wants it and it does not play.
///
/// `Play` is reported when playback is wanted, the media is loaded, the engine's clock runs, no stall holds
/// it and it is not reported already; the first time is the first play (the "before" cue points fire with
/// it). `Pause` is reported when the app no longer wants playback and the engine's clock stops — at once
/// when the clock was already stopped (stalled, or not started), since the engine will not report it then.
/// The app's wishes are recorded first (`playRequested`, `pauseRequested`) and acted on when the loop
/// sends them to the engine (`playSent`, `pauseSent`), after whatever it does in between (a restart at the
/// end, a stall's check).
struct PlayIntent: Equatable {
    /// What keeps playback from going on although the app wants it.
    enum Hold: Hashable, Sendable {
        /// Normal playback ran dry (`StallWatch`): no `Play` until the buffer refills.
        case stall
        /// The bumper plays first: the app's play and pause go to it until it exits.
        case bumper
    }

    /// Why playback does not go on.
    enum PauseReason: Equatable {
        /// The app has not asked for playback, or paused.
        case app
        case bumper
        /// The content's pipeline waits for its turn to load.
        case waitingToLoad
        case stall
    }

    /// The app wants playback (play asked, or auto-play, and no pause since).
    private(set) var isRequested = false
    /// The engine's clock runs.
    private(set) var isEngineRunning = false
    /// `Play` was reported and `Pause` not since: the playhead is meant to move.
    private(set) var isPlaying = false
    /// `Play` was reported at least once (the "before" cue points were reported with it).
    private(set) var hasPlayed = false
    private(set) var holds: Set<Hold> = []
    /// The content's pipeline is built but not loaded (a visible output never shows two windows at once):
    /// it loads when its turn comes.
    private(set) var isLoadDeferred = false

    /// Why playback does not go on; nil when nothing stops it (it plays, or will once loaded and running).
    var pausedBy: PauseReason? {
        if !isRequested { return .app }
        if holds.contains(.bumper) { return .bumper }
        if isLoadDeferred { return .waitingToLoad }
        if holds.contains(.stall) { return .stall }
        return nil
    }

    enum Event: Equatable {
        /// The app asked to play (or auto-play did, or the play carried over from the previous video).
        case playRequested
        /// The app asked to pause.
        case pauseRequested
        /// A resume decided whether playback is wanted (`resumeVideo(at:autoPlay:)`'s `autoPlay`).
        case resumed(autoPlay: Bool)
        /// The app's play is sent to the engine. A clock that already runs will not be reported again.
        /// `loaded`: the media is ready.
        case playSent(loaded: Bool)
        /// The app's pause is sent to the engine. A clock that is already stopped will not be reported again.
        case pauseSent
        /// The engine's clock started. `loaded`: the media is ready.
        case engineStarted(loaded: Bool)
        /// The engine's clock stopped.
        case engineStopped
        /// The media became ready (on the first pipeline, or on one rebuilt for a seek).
        case loaded
        /// A pipeline rebuilt after a failure or for a resume loaded: playback carries on as wanted.
        case rebuiltPipelineLoaded
        /// The pipeline was replaced by a new one, whose clock has not started.
        case pipelineReplaced
        /// Something holds playback, or no longer does (by itself that starts nothing: the loop restarts the
        /// engine as the stall's recovery or the bumper's exit needs).
        case held(Hold)
        case released(Hold)
        /// The content's pipeline was built without being loaded.
        case loadDeferred
        /// The content's turn came: its bumper exited, or its preloaded session became current.
        /// `loaded`: the media is ready.
        case contentsTurn(loaded: Bool)
        /// The session stopped (it ended, or a plugin refused it): nothing is wanted or playing any longer,
        /// and no `Pause` is reported (the end or the failure says it).
        case stopped
    }

    enum Effect: Equatable {
        /// Report `Play`; `first`: playback starts for the first time (the "before" cue points fire).
        case reportPlay(first: Bool)
        /// Report `Pause`.
        case reportPause
        /// Tell the engine to play.
        case playEngine
        /// Load the deferred pipeline, playing once loaded if `playWhenReady`.
        case loadEngine(playWhenReady: Bool)
        /// Playback goes on as reported, on a new pipeline: progress reports start again.
        case resumeProgress
    }

    /// Takes an event; returns what the loop must do, in order.
    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .playRequested:
            isRequested = true
            return []
        case .pauseRequested:
            isRequested = false
            return []
        case .resumed(let autoPlay):
            isRequested = autoPlay
            return []
        case .playSent(let loaded):
            return startIfDue(loaded: loaded)
        case .pauseSent:
            guard isPlaying && !isEngineRunning else { return [] }
            return pause()
        case .engineStarted(let loaded):
            isEngineRunning = true
            return startIfDue(loaded: loaded)
        case .engineStopped:
            isEngineRunning = false
            guard isPlaying && !isRequested else { return [] }
            return pause()
        case .loaded:
            return startIfDue(loaded: true)
        case .rebuiltPipelineLoaded:
            if isRequested { return isPlaying ? [.resumeProgress] : startIfDue(loaded: true) }
            return isPlaying ? pause() : []
        case .pipelineReplaced:
            isEngineRunning = false
            return []
        case .held(let hold):
            holds.insert(hold)
            return []
        case .released(let hold):
            holds.remove(hold)
            return []
        case .loadDeferred:
            isLoadDeferred = true
            return []
        case .contentsTurn(let loaded):
            if isLoadDeferred {
                isLoadDeferred = false
                return [.loadEngine(playWhenReady: isRequested)]
            }
            guard isRequested else { return [] }
            return [.playEngine] + startIfDue(loaded: loaded)
        case .stopped:
            isRequested = false
            isPlaying = false
            return []
        }
    }

    /// `Play` when it is wanted, loaded, running, not held by a stall and not reported yet.
    private mutating func startIfDue(loaded: Bool) -> [Effect] {
        guard isRequested && isEngineRunning && !isPlaying && loaded && !holds.contains(.stall) else { return [] }
        isPlaying = true
        let first = !hasPlayed
        hasPlayed = true
        return [.reportPlay(first: first)]
    }

    private mutating func pause() -> [Effect] {
        isPlaying = false
        return [.reportPause]
    }
}
