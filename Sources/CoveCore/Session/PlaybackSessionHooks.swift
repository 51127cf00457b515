/// A plugin's part in one session's playback, for plugins that change what the app sees of the
/// stream (SSAI: the stream has ads stitched in, the app sees content time and ad events).
///
/// A provider attaches hooks to its `SessionPlan`; the controller calls them on its event loop, in
/// order, never concurrently, and never while holding a lock — so an implementation may keep its
/// state behind its own lock and answer app threads too. Calls must return promptly: they run on
/// the loop that also drives playback.
///
/// Times called *engine* times are positions in the stream the engine plays; *reported* times are
/// what the app sees in progress, duration, cue points and seeks.
public protocol PlaybackSessionHooks: AnyObject, Sendable {
    /// The session exists; `control` acts on it later (seeks a plugin makes itself). Returns events
    /// to report right after `SessionAdvanced` (a plugin's own errors or data).
    func sessionStarted(_ session: PlaybackSession, control: SessionControl) -> [PlaybackEvent]
    /// The reported time at engine position `position` (finite).
    func reportedTime(forEngineTime position: MediaTime) -> MediaTime
    /// The engine time for reported time `time` (a resume position the app passes, for example).
    func engineTime(forReportedTime time: MediaTime) -> MediaTime
    /// The reported duration for the engine's duration (nil: unknown).
    func reportedDuration(forEngineDuration duration: MediaTime?) -> MediaTime?
    /// The playhead is at `position`: by natural playback since the last call, or — `jumped` — after
    /// a seek, a rebuild or the start. `ended` is true at the end of the stream. Returns events to
    /// report before the progress event for this position.
    func playheadMoved(to position: MediaTime, jumped: Bool, ended: Bool) -> [PlaybackEvent]
    /// Playback started (`playing`) or paused. Returns events to report after Play or Pause.
    func playingChanged(_ playing: Bool, at position: MediaTime) -> [PlaybackEvent]
    /// The app asked to seek to reported time `time`. `adsDisabled` is the controller's switch.
    func seekRequested(to time: MediaTime, from position: MediaTime, adsDisabled: Bool, completion: (@Sendable (Bool) -> Void)?) -> HookedSeek
    /// The session ended or was terminated: finish what is in flight (no more calls follow).
    func sessionEnded()
    /// The commands available now, given the controller's own answer: a plugin takes away what its
    /// stream cannot do at the moment (SSAI: seeking during an ad) and adds what it offers (skipping a
    /// skippable ad). Asked after every input the loop handles; answer from state, promptly.
    func availableCommands(adjusting commands: Set<PlayerCommand>) -> Set<PlayerCommand>
}

extension PlaybackSessionHooks {
    /// Leaves the controller's answer as it is.
    public func availableCommands(adjusting commands: Set<PlayerCommand>) -> Set<PlayerCommand> { commands }
}

/// What the controller does with an app seek on a hooked session.
public enum HookedSeek: Sendable {
    /// Seek the engine to this engine time; the app's completion runs when it lands.
    case seek(MediaTime)
    /// Seek the engine to this engine time, but the plugin keeps the app's completion and runs it
    /// itself (after the ads it plays first).
    case seekKeepingCompletion(MediaTime)
    /// Refuse the seek: the completion runs with false, and the reason is logged.
    case refuse(reason: String)
}

/// What hooks may do to their session later, from any thread.
public struct SessionControl: Sendable {
    let sessionID: Int
    let send: @Sendable (ControllerInput) -> Void

    init(sessionID: Int, send: @escaping @Sendable (ControllerInput) -> Void) {
        self.sessionID = sessionID
        self.send = send
    }

    /// Seeks the engine to engine time `time` without asking the hooks (they asked). Ignored, with the
    /// completion given false, once the session is no longer current.
    public func seekEngine(to time: MediaTime, completion: (@Sendable (Bool) -> Void)? = nil) {
        send(.command(.seekEngine(sessionID: sessionID, time, completion)))
    }

    /// Reports `event` for the session, in order with the controller's own events.
    public func report(_ event: PlaybackEvent) {
        send(.command(.report(sessionID: sessionID, event)))
    }

    /// Runs an app's completion with `value` on the controller's delivery task, after the events
    /// reported before it (as the controller runs its own completions).
    public func deliver(_ completion: @escaping @Sendable (Bool) -> Void, _ value: Bool) {
        send(.command(.settle { completion(value) }))
    }

    /// Stops the session for good with `error` (reported as `Fail`; no retry, no automatic resume, no
    /// advance): what a plugin does when a service it answers to refuses the stream mid-play. Ignored
    /// once the session is no longer current.
    public func fail(_ error: PlaybackError) {
        send(.command(.failSession(sessionID: sessionID, error)))
    }

    /// Offers `tracks` as the session's text for as long as an interstitial plays (an SSAI ad's own
    /// captions while the ad is on screen); an empty list withdraws them. The tracks are listed in the
    /// session's text group beside the content's; when the viewer has captions on, the one in the
    /// language shown (else the first) is shown in place of the content's track — the content's choice
    /// itself is kept, and comes back when the tracks are withdrawn. A later offer replaces an earlier
    /// one. The app can pick one of them, or another track, like any text track; picking one is not
    /// remembered as the viewer's caption preference (it only exists during the interstitial).
    /// Ignored once the session is no longer current.
    public func offerTextTracks(_ tracks: [SidecarTextTrack]) {
        send(.command(.offerTextTracks(sessionID: sessionID, tracks)))
    }

    /// A seek the app makes through a plugin API, as `PlaybackController.seek(to:)` would.
    public func seek(to time: MediaTime, completion: (@Sendable (Bool) -> Void)? = nil) {
        send(.command(.seekSession(sessionID: sessionID, time, completion)))
    }
}
