import Foundation
import Logging

/// Plugin hooks and what the app is shown while playing: the hooks' reported time and duration,
/// playhead moves, seek completion, progress reports with cue points, and sidecar (and stream) text cues.
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
        let jumped = runtime.hooksPlayheadJumped
        runtime.hooksPlayheadJumped = false
        for event in hooks.playheadMoved(to: position, jumped: jumped, ended: ended) { emit(event) }
    }

    func seekFinished(_ runtime: SessionRuntime, succeeded: Bool) {
        let session = runtime.session
        if !succeeded { _ = runtime.frames.handle(.seekAbandoned) }
        if succeeded, let position = runtime.player?.position {
            if runtime.hasPlayed {
                report(position: position, in: runtime)
            } else {
                runtime.lastReportedTime = position
                // The hooks learn where playback will start (an SSAI seek may land in a break).
                movePlayhead(runtime, to: position)
                emit(.progress(session, reported(position, runtime)))
            }
        }
        emit(.lifecycle(session, .likelyToKeepUp))
        if runtime.stall.handle(.seekFinished) == .recovered {
            if runtime.playRequested {
                emit(.lifecycle(session, .recovered))
                runtime.player?.play()
            }
        }
        if runtime.isPlaying { startTicker(runtime) }
        if track(.seekHandled, in: runtime).endReached { reachedEnd(runtime) }
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

    // MARK: Sidecar text

    /// Reports the selected sidecar track's cues at `position` when they differ from the last report,
    /// and wakes up again at the next cue boundary (scaled by the rate) rather than waiting for the
    /// next progress tick, so a cue shows and hides on time.
    func updateTextCues(_ runtime: SessionRuntime, at position: MediaTime) {
        // The selected sidecar track, else the stream's own selected rendition with the cues it delivered.
        let sidecar = runtime.selectedSidecarID.flatMap { id in runtime.session.sidecarTextTracks.first { $0.mediaTrack.id == id } }
        let track: MediaTrack? = sidecar?.mediaTrack ?? runtime.session.selectedTextTrack
        let index: (any TimedTextCues)?
        if let sidecar {
            index = sidecar.cues  // nil while it loads
        } else {
            index = track == nil ? nil : runtime.streamCues
        }
        let cues = index?.cues(at: position) ?? []
        // A track switched away from reports its cues cleared; the new one reports its own.
        if let shown = runtime.reportedCueTrack, shown != track, !runtime.reportedCues.isEmpty {
            emit(.textCuesChanged(runtime.session, TextCueChange(track: shown, cues: [], position: position)))
            runtime.reportedCues = []
            if configuration.captionsOnPicture { runtime.player?.showCaptions([]) }
        }
        runtime.reportedCueTrack = track
        if let track, cues != runtime.reportedCues {
            runtime.reportedCues = cues
            emit(.textCuesChanged(runtime.session, TextCueChange(track: track, cues: cues, position: position)))
            // The picture shows what the events say, at the same moment.
            if configuration.captionsOnPicture { runtime.player?.showCaptions(cues) }
        }
        // Ad breaks play at 1× whatever the app's rate.
        let rate = runtime.playingAdBreak ? 1 : max(settings.rate, 0.1)
        let next = runtime.isPlaying ? index?.nextChange(after: position) : nil
        // Progress reports come several times a second: a wake-up already set for this boundary stands.
        if let next, runtime.timers.isArmed(.cueBoundary), runtime.cueWake?.boundary == next, runtime.cueWake?.rate == rate { return }
        runtime.timers.cancel(.cueBoundary)
        runtime.cueWake = next.map { ($0, rate) }
        guard let next else { return }
        let wait = max(
            MediaTime(nanoseconds: Int64((Double((next.nanoseconds ?? 0) - (position.nanoseconds ?? 0)) / rate).rounded(.up))),
            MediaTime(nanoseconds: 5_000_000))
        guard let delay = wait.duration else { return }
        arm(.cueBoundary, in: runtime, after: delay)
    }
}
