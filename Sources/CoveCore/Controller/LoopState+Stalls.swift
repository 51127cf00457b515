import Foundation
import Logging

/// Running dry during playback (`StallWatch`): the stall and the recovery, and a stall after downloads
/// died, which hands over to the retries.
extension LoopState {
    func handleBuffering(_ percent: Int, in runtime: SessionRuntime) {
        // Load and seek buffering are reported by their own BufferEmpty/LikelyToKeepUp pairs.
        let counts = runtime.phase == .ready && !runtime.seeks.isSeeking && runtime.hasPlayed
        let session = runtime.session
        switch runtime.stall.handle(.buffering(percent, counts: counts, wanted: runtime.playRequested)) {
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
            if runtime.playRequested {
                emit(.lifecycle(session, .recovered))
                runtime.player?.play()
                if runtime.isPlaying { startTicker(runtime) }
            }
        case .downloadFailed, nil:
            break
        }
    }

    /// Normal playback ran out of data: report the stall and remember where it stopped.
    func reportStall(_ runtime: SessionRuntime) {
        runtime.resumePosition = runtime.player?.position ?? runtime.resumePosition
        stopTicker(runtime)
        emit(.lifecycle(runtime.session, .bufferEmpty))
        emit(.lifecycle(runtime.session, .stalled))
    }
}
