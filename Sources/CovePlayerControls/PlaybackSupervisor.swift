import CoveCore
import CoveSSAI

/// How playback finished: to its end, failed, quit from the keyboard (a normal way out), or
/// interrupted by a signal.
public enum PlaybackOutcome: Sendable { case ended, failed, quit, interrupted }

/// What both `cove play` front ends (the plain event log and the control bar) do with the
/// controller's events beyond showing them: decide when playback is over and how it ended, hold
/// sessions to the requested caption language, and collect SSAI sessions so their last beacons are
/// sent before the command exits.
public struct PlaybackSupervisor: Sendable {
    public typealias Outcome = PlaybackOutcome

    let controller: PlaybackController
    let videos: [Video]
    let autoAdvance: Bool
    let captionLanguage: String?

    public private(set) var outcome = Outcome.interrupted
    private var failed = false
    private var ssaiSessions: [SSAISession] = []

    public init(controller: PlaybackController, videos: [Video], autoAdvance: Bool, captionLanguage: String?) {
        self.controller = controller
        self.videos = videos
        self.autoAdvance = autoAdvance
        self.captionLanguage = captionLanguage
    }

    public mutating func handle(_ event: PlaybackEvent) {
        switch event {
        case .sessionAdvanced(let session):
            if let ssai = session.ssai { ssaiSessions.append(ssai) }
            selectCaptions(in: session)
        case .lifecycle(let session, .ready):
            // The stream's own renditions are listed by now.
            if session.selectedTextTrack == nil { selectCaptions(in: session) }
        case .lifecycle(_, .end) where !autoAdvance:
            outcome = .ended
            controller.shutdown()
        case .lifecycle(_, .fail):
            // With autoAdvance the controller moves on by itself (and completes the playlist).
            failed = true
            if !autoAdvance {
                outcome = .failed
                controller.shutdown()
            }
        case .lifecycle(_, .failedToPlayToEndTime):
            failed = true
            if autoAdvance, let session = event.session, let index = videos.firstIndex(of: session.video), index + 1 < videos.count {
                controller.advanceToNext()
            } else {
                outcome = .failed
                controller.shutdown()
            }
        case .playlistCompleted, .noPlayableVideosFound:
            outcome = failed ? .failed : .ended
            controller.shutdown()
        default:
            break
        }
    }

    /// The viewer quit.
    public mutating func quit() {
        outcome = .quit
        controller.shutdown()
    }

    /// Whether a failure has been seen (for the front end's status).
    public var hasFailed: Bool { failed }

    /// Sends what the played SSAI sessions still owe (a post-roll's complete is due as playback ends).
    public func finish() async {
        for ssai in ssaiSessions { await ssai.drainBeacons() }
    }

    private func selectCaptions(in session: PlaybackSession) {
        guard let captionLanguage, let track = session.textTrackGroup.track(preferring: [captionLanguage]) else { return }
        session.selectTextTrack(track)
    }
}
