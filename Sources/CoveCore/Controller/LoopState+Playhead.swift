import Foundation
import Logging

/// The playhead as the app is shown it: the plugin hooks' reported time and duration, playhead moves, and
/// progress reports with cue points.
///
/// Separate because these run on every progress report and map engine time to the app's time;
/// they do not decide what plays.
extension LoopState {
    // MARK: Plugin hooks

    /// The time the app sees for engine time `time`: the hooks' mapping (SSAI content time), or itself.
    func reported(_ time: MediaTime, _ runtime: SessionRuntime) -> MediaTime {
        guard time.isFinite, let hooks = runtime.hooks else { return time }
        return hooks.reportedTime(forEngineTime: time)
    }

    func reportedDuration(_ duration: MediaTime?, _ runtime: SessionRuntime) -> Duration? {
        guard let hooks = runtime.hooks else { return duration?.duration }
        return hooks.reportedDuration(forEngineDuration: duration)?.duration
    }

    /// Tells the hooks where the playhead is and reports what they answer.
    func movePlayhead(_ runtime: SessionRuntime, to position: MediaTime, ended: Bool = false) {
        guard let hooks = runtime.hooks, position.isFinite else { return }
        let jumped = runtime.hooksState.handle(.playheadReported) == .reportJump
        for event in hooks.playheadMoved(to: position, jumped: jumped, ended: ended) { emit(event) }
    }

    /// Reports progress at `position`, with every cue point passed since the last report.
    /// Cue points at or before the resume high-water mark were reported before a resume and never repeat.
    func report(position: MediaTime, in runtime: SessionRuntime) {
        let session = runtime.session
        movePlayhead(runtime, to: position)
        // Cue points and progress are in reported time (content time under SSAI, which stands still
        // during ads, so no cue point fires inside a break).
        let shown = reported(position, runtime)
        let previous = reported(max(runtime.lastReportedTime, runtime.cueHighWater), runtime)
        if shown > previous {
            let passed = session.video.cuePoints.after(previous, atOrBefore: shown)
            if !passed.isEmpty { emit(.cuePointsPassed(session, CuePointPassage(previousTime: previous, currentTime: shown, cuePoints: passed))) }
        }
        runtime.lastReportedTime = position
        if runtime.lastEmittedProgress != shown {
            runtime.lastEmittedProgress = shown
            emit(.progress(session, shown))
        }
        updateTextCues(runtime, at: position)
        watched(position, in: runtime)
        // Playing well again a while past the failure: the episode is over.
        _ = runtime.retries.handle(.progressed(to: position))
        maybePreloadNext(after: runtime, at: position)
    }
}
