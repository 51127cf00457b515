import Foundation
import Logging

/// Running dry during playback (`StallWatch`): the stall and the recovery, and a stall after downloads
/// died, which hands over to the retries.
extension LoopState {
    func handleBuffering(_ percent: Int, in runtime: SessionRuntime) {
        // Load and seek buffering are reported by their own BufferEmpty/LikelyToKeepUp pairs.
        let counts = runtime.phase == .ready && !runtime.seeks.isSeeking && runtime.intent.hasPlayed
        let session = runtime.session
        switch watchStall(.buffering(percent, counts: counts, wanted: runtime.intent.isRequested), in: runtime) {
        case .stalled(let failure):
            reportStall(runtime)
            if let failure {
                retryOrFail(runtime, error: failure)
                return
            }
            // Paused until the buffer refills, so the clock waits for the starved stream. Unsynchronized sinks
            // play against no clock, so there is nothing to hold back; and pausing there can hang GStreamer
            // 1.22: the other stream has already run to its end, the starved one cannot preroll, and the
            // pipeline never returns to PLAYING (a DASH stall in fast mode never reached End).
            if configuration.pacing == .realTime { runtime.player?.pause() }
        case .recovered:
            emit(.lifecycle(session, .likelyToKeepUp))
            if runtime.intent.isRequested {
                emit(.lifecycle(session, .recovered))
                runtime.player?.play()
                if runtime.intent.isPlaying { startTicker(runtime) }
            }
        case .downloadFailed, nil:
            break
        }
    }

    /// Feeds the content's stall watch. A stall holds the play intent until the watch says it is over (it
    /// refilled, or the media ended).
    @discardableResult
    func watchStall(_ event: StallWatch.Event, in runtime: SessionRuntime) -> StallWatch.Effect? {
        let effect = runtime.stall.handle(event)
        _ = runtime.intent.handle(runtime.stall.isStalled ? .held(.stall) : .released(.stall))
        return effect
    }

    /// Normal playback ran out of data: report the stall and remember where it stopped.
    func reportStall(_ runtime: SessionRuntime) {
        runtime.resumePosition = runtime.player?.position ?? runtime.resumePosition
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .bufferEmpty))
        emit(.lifecycle(runtime.session, .stalled))
    }
}
