import Foundation
import Logging

/// How a session stops: refused by a plugin, failed to play to the end, or ended (with the queue moving on).
extension LoopState {
    /// A plugin stopped the session for good (a refusal, not a fault): the engine closes, pending seeks
    /// fail, and `Fail` is reported once; nothing retries, resumes or advances.
    func stopRefused(_ runtime: SessionRuntime, error: PlaybackError) {
        guard runtime.phase != .failed else { return }
        runtime.phase = .failed
        _ = runtime.intent.handle(.stopped)
        // No retry or automatic resume may reopen a refused stream.
        disarm(runtime)
        runtime.rebuilding = nil
        runtime.eventTask?.cancel()
        runtime.eventTask = nil
        abandonBumper(in: runtime)
        stopTicker(runtime)
        track(.abandoned, in: runtime)
        runtime.player?.pause()
        runtime.player?.close()
        emit(.lifecycle(runtime.session, .fail(error)))
        logger.error("session stopped by a plugin", metadata: ["session": "\(runtime.session.id)", "error": "\(error)"])
    }

    func failedToPlayToEnd(_ runtime: SessionRuntime, error: PlaybackError) {
        guard runtime.milestones.reach(.failedToPlayToEndReported) else { return }
        runtime.phase = .failed
        abandonBumper(in: runtime)
        stopTicker(runtime)
        track(.inFlightEnded(succeeded: false), in: runtime)
        let failure =
            error.code == .failedToPlayToEnd
            ? error
            : PlaybackError(
                .failedToPlayToEnd, "Playback cannot continue: \(error.message)", url: error.url, httpStatus: error.httpStatus, cause: .playback(error))
        emit(.lifecycle(runtime.session, .failedToPlayToEndTime(failure)))
        logger.error("playback failed mid-stream", metadata: ["session": "\(runtime.session.id)", "error": "\(failure)"])
        runtime.player?.pause()
        scheduleAutomaticResume(runtime, error: error)
    }

    func reachedEnd(_ runtime: SessionRuntime) {
        let session = runtime.session
        stopTicker(runtime)
        track(.inFlightEnded(succeeded: false), in: runtime)
        watchStall(.reachedEnd, in: runtime)
        _ = runtime.frames.handle(.seekAbandoned)
        let end = runtime.duration ?? runtime.player?.position ?? runtime.lastReportedTime
        // The plugin finishes what the end completes (a post-roll) before the content's last progress.
        movePlayhead(runtime, to: end, ended: true)
        if end > runtime.lastReportedTime || runtime.lastReportedTime == .before {
            emit(.progress(session, reported(end, runtime)))
        }
        let lastShown = reported(runtime.lastReportedTime, runtime)
        let passed = session.video.cuePoints.after(lastShown, atOrBefore: .after)
        if !passed.isEmpty { emit(.cuePointsPassed(session, CuePointPassage(previousTime: lastShown, currentTime: .after, cuePoints: passed))) }
        runtime.lastReportedTime = .after
        runtime.phase = .ended
        let wasPlaying = runtime.intent.isRequested
        _ = runtime.intent.handle(.stopped)
        runtime.player?.pause()
        emit(.lifecycle(session, .end))
        guard settings.autoAdvance else { return }
        let next = (index ?? 0) + 1
        if next < queue.count {
            terminateCurrent()
            advance(to: next, playRequested: settings.autoPlay || wasPlaying)
        } else {
            emit(.playlistCompleted(queue))
        }
    }
}
