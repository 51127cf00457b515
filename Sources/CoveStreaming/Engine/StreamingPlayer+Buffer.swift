import CoveCore
import Foundation

/// The buffering Cove reports from what it pushed (see `StreamStarvation`): an engine fed by appsrc-like
/// inputs reports none of its own. Checked every 50 ms once the engine prerolled, on a task of its own.
extension StreamingPlayer {
    static let bufferCheckInterval: Duration = .milliseconds(50)

    func startBufferCheck() {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.bufferCheckInterval)
                guard let self, !isClosed else { return }
                checkBuffer()
            }
        }
        let keep = state.withLock { s -> Bool in
            guard !s.closed, s.bufferCheck == nil else { return false }
            s.bufferCheck = task
            return true
        }
        if !keep { task.cancel() }
    }

    /// 0 % when the playhead stands at the end of the pushed media (or one of two streams has overrun),
    /// 100 % once media is there again.
    func checkBuffer() {
        let (fed, audio, starved, atPlaying) = state.withLock { ($0.fed, $0.audio?.session, $0.starvation.isStarved, $0.atPlaying) }
        guard let fed, let videoAhead = session.bufferedAhead else { return }
        let ahead = min(videoAhead, audio?.bufferedAhead ?? videoAhead)
        let ended = session.hasPushedEnd && (audio?.hasPushedEnd ?? true)
        let now = Date().timeIntervalSince1970
        let playhead = fed.input(.main)?.playheadPosition()
        updateTextPlayhead(playhead)
        let (frozen, overrun) = state.withLock { s in
            (s.starvation.playheadIsFrozen(at: playhead, now: now), s.starvation.hasOverrun(separateAudio: audio != nil, ahead: ahead, now: now))
        }
        // A generation whose fetching failed before its first push leaves its input empty for good. The
        // pipeline it restarted (a rate change's or a cap's flush) may never reach PLAYING again, nor its
        // playhead move, so neither "at playing" nor "frozen" would ever say so: it is run dry now, and the
        // controller's stall hands the failure to the retries (issue 33's chaos run: a rate change whose
        // restarted segment came back as junk stood still for good).
        let stranded = session.stoppedWithNothingPushed || (audio?.stoppedWithNothingPushed ?? false)
        if !starved && (stranded || (atPlaying && StreamStarvation.runsDry(ahead: ahead, frozen: frozen, overrun: overrun, ended: ended))) {
            state.withLock { s in
                s.starvation.isStarved = true
                s.lastBufferingSent = 0
            }
            emit(.buffering(percent: 0))
        } else if starved && StreamStarvation.isRefilled(ahead: ahead, ended: ended) {
            state.withLock { s in
                s.starvation.isStarved = false
                s.lastBufferingSent = 100
            }
            emit(.buffering(percent: 100))
        }
    }
}
