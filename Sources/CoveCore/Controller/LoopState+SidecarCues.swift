import Foundation
import Logging

/// The text cues the app is shown: an interstitial's track shown now, else the selected sidecar track's (or the
/// stream's own rendition's), reported
/// when they change and woken at the next cue boundary by the `.cueBoundary` timer.
extension LoopState {
    /// Reports the selected sidecar track's cues at `position` when they differ from the last report,
    /// and wakes up again at the next cue boundary (scaled by the rate) rather than waiting for the
    /// next progress tick, so a cue shows and hides on time.
    func updateTextCues(_ runtime: SessionRuntime, at position: MediaTime) {
        // The interstitial's track shown now (an SSAI ad's captions), else the selected sidecar track, else
        // the stream's own selected rendition with the cues it delivered.
        let sidecar =
            interstitialTrack(runtime.interstitialTextID, in: runtime)
            ?? runtime.selectedSidecarID.flatMap { id in runtime.session.sidecarTextTracks.first { $0.mediaTrack.id == id } }
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
        let rate = runtime.hooksState.engineRate(appRate: max(settings.rate, 0.1))
        let next = runtime.intent.isPlaying ? index?.nextChange(after: position) : nil
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
