import Foundation
import Logging

/// The bumper that plays inside a session before its content (`BumperPlayback`, a `StallWatch` and the
/// `.bumperStall` timer): its events, its stalls, and handing over to the content when it ends or fails.
extension LoopState {
    func handleBumper(_ event: EngineEvent, in runtime: SessionRuntime) {
        guard let bumper = runtime.bumper else { return }
        let session = runtime.session
        switch event {
        case .playing:
            apply(bumper.playback.handle(.enginePlaying(stalled: bumper.stall.isStalled)), in: runtime)
        case .paused:
            apply(bumper.playback.handle(.enginePaused(playRequested: runtime.intent.isRequested)), in: runtime)
        case .firstFrame(let wallTime):
            apply(bumper.playback.handle(.framePresented(wallTime: wallTime)), in: runtime)
        case .buffering(let percent):
            handleBumperBuffering(percent, bumper: bumper, in: runtime)
        case .endOfStream:
            finishBumper(in: runtime, failure: nil)
        case .failed(let error):
            finishBumper(in: runtime, failure: error)
        case .downloadFailed(let error):
            // Like the content: buffered media may still play; fatal only once the bumper runs dry.
            logger.notice("bumper download failed", metadata: ["session": "\(session.id)", "error": "\(error)"])
            if case .downloadFailed(_, whileStalled: true) = bumper.stall.handle(.downloadFailed(error)) { finishBumper(in: runtime, failure: error) }
        default:
            break
        }
    }

    /// Carries out what the bumper's playback state asked for.
    func apply(_ effects: [BumperPlayback.Effect], in runtime: SessionRuntime) {
        for effect in effects {
            switch effect {
            case .reportResume: emit(.lifecycle(runtime.session, .bumperResume))
            case .reportPause: emit(.lifecycle(runtime.session, .bumperPause))
            case .startProgress: startTicker(runtime)
            case .stopProgress: stopTicker(runtime)
            case .reportFrame(let frame): emit(.framePresented(runtime.session, frame))
            }
        }
    }

    /// A bumper that runs dry pauses until its buffer refills; if that takes longer than the stall
    /// timeout it is skipped, so a slow bumper can never hold the content back for long.
    private func handleBumperBuffering(_ percent: Int, bumper: SessionRuntime.BumperRuntime, in runtime: SessionRuntime) {
        switch bumper.stall.handle(.buffering(percent, counts: bumper.playback.hasPlayed, wanted: true)) {
        case .stalled(let failure?):
            finishBumper(in: runtime, failure: failure)
        case .stalled(nil):
            stopTicker(runtime)
            bumper.player.pause()
            arm(.bumperStall, in: runtime, after: configuration.bumperStallTimeout)
        case .recovered:
            runtime.timers.cancel(.bumperStall)
            if runtime.intent.isRequested { bumper.player.play() }
        case .downloadFailed, nil:
            break
        }
    }

    /// Closes the bumper's player; the caller reports the exit.
    func closeBumper(_ bumper: SessionRuntime.BumperRuntime, in runtime: SessionRuntime) {
        runtime.bumper = nil
        _ = runtime.intent.handle(.released(.bumper))
        stopTicker(runtime)
        runtime.timers.cancel(.bumperStall)
        bumper.eventTask?.cancel()
        bumper.player.close()
    }

    /// The bumper is over: report it, drop its player and let the (preloaded) content play.
    func finishBumper(in runtime: SessionRuntime, failure: PlaybackError?) {
        guard let bumper = runtime.bumper else { return }
        let session = runtime.session
        closeBumper(bumper, in: runtime)
        if let failure { emit(.lifecycle(session, .bumperFailedToPlayToEndTime(failure))) }
        emit(.lifecycle(session, .bumperExit(bumper.video)))
        guard runtime.phase != .failed else { return }
        let effects = runtime.intent.handle(.contentsTurn(loaded: runtime.phase == .ready))
        // A pipeline that waited for the bumper starts loading now: its buffering is reported from here.
        if case .loadEngine? = effects.first { emit(.lifecycle(session, .bufferEmpty)) }
        apply(effects, in: runtime)
    }

    /// The content failed while its bumper played: the bumper stops (and exits) at once, and plays
    /// before the next video instead.
    func abandonBumper(in runtime: SessionRuntime) {
        guard let bumper = runtime.bumper else { return }
        closeBumper(bumper, in: runtime)
        emit(.lifecycle(runtime.session, .bumperExit(bumper.video)))
        bumperPlayedInQueue = false
        carriedBumper = bumper.video
    }
}
