import Foundation
import Synchronization

/// Holds an adaptive (HLS/DASH) pipeline's flushing seeks until its demuxer has no segment download
/// in flight, then sends the latest one.
///
/// Why: GStreamer 1.22.0's adaptivedemux2 (what Debian 12 ships) can crash the whole process when a
/// flushing seek cancels a segment download that is still running: the cancellation completes
/// asynchronously on the download thread while the restarted stream reuses the same request, which
/// ends in an assertion (`download_request_set_uri: request->in_use == FALSE`) or a use-after-free in
/// libsoup on the download thread. Later GStreamer releases recycle the request instead. Measured
/// against served fixtures, runs of 80 pipelines with 3 back-to-back seeks each: `tools/gst-seek-stress`
/// (plain GStreamer) crashed in 6 of 10 runs seeking at once and 0 of 10 waiting for 100 ms without
/// segment data; Cove's own engine (`rapidSeeksAsStreamsStartLandOnTheLastTarget` at 80 rounds) crashed
/// in 3 of 5 runs with this gate switched off and 0 of 5 with it.
///
/// While a seek waits, the demuxer is asked not to start another download (`hold`), so the wait is the
/// rest of the download in flight rather than a whole buffering burst. A seek never waits longer than
/// `limit`: a stream that never goes quiet still seeks, as before. Only the newest seek is sent — one
/// that a newer seek replaced while waiting would be flushed away at once anyway.
final class SeekGate: Sendable {
    struct Policy: Sendable, Equatable {
        /// How long without segment data counts as "no download in flight".
        var quiet: Duration = .milliseconds(100)
        /// The longest a seek waits.
        var limit: Duration = .milliseconds(1500)
    }

    enum Decision: Equatable {
        case send
        /// Look again after this long.
        case wait(Duration)
    }

    /// Whether a seek that has waited since `waitingSince` goes now. Times are monotonic nanoseconds;
    /// `lastData` is when the demuxer last received segment data (nil: never).
    static func decide(now: UInt64, lastData: UInt64?, waitingSince: UInt64, policy: Policy) -> Decision {
        let quietNanos = policy.quiet.clampedNanoseconds
        let limitNanos = policy.limit.clampedNanoseconds
        let quietFor = lastData.map { now >= $0 ? now - $0 : 0 } ?? UInt64.max
        let waited = now >= waitingSince ? now - waitingSince : 0
        if quietFor >= quietNanos || waited >= limitNanos { return .send }
        let untilQuiet = quietNanos - quietFor
        let untilLimit = limitNanos - waited
        // Look at least every 20 ms, so data that stops is noticed promptly.
        return .wait(.nanoseconds(Int64(min(untilQuiet, untilLimit, 20_000_000))))
    }

    private struct State {
        var pending: (@Sendable (Duration) -> Void)?
        var hold: (@Sendable (Bool) -> Void)?
        var lastData: UInt64?
        var waiting = false
        var closed = false
    }

    private let state = Mutex(State())
    private let policy: Policy
    private let queue = DispatchQueue(label: "cove-gst-seek-gate")

    init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// The demuxer received segment data (called from streaming threads, for every buffer).
    func noteSegmentData() {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.lastData = now }
    }

    /// Runs `send` (with how long the seek was held) once the demuxer is quiet, unless a newer
    /// submission replaces it first. While it
    /// waits, `hold(true)` asks the demuxer not to start another download; `hold(false)` restores it.
    func submit(hold: @escaping @Sendable (Bool) -> Void, send: @escaping @Sendable (_ held: Duration) -> Void) {
        let start = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.pending = send
            s.hold = hold
            defer { s.waiting = true }
            return !s.waiting
        }
        guard start else { return }
        let since = DispatchTime.now().uptimeNanoseconds
        queue.async { [self] in wait(since: since) }
    }

    /// Drops a waiting seek: the pipeline is going away.
    func close() {
        state.withLock { s in
            s.closed = true
            s.pending = nil
            s.hold = nil
        }
    }

    private func wait(since: UInt64) {
        var held: (@Sendable (Bool) -> Void)?
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (decision, closed, hold) = state.withLock { s in
                (Self.decide(now: now, lastData: s.lastData, waitingSince: since, policy: policy), s.closed, s.hold)
            }
            if closed { break }
            guard case .wait(let pause) = decision else { break }
            if held == nil, let hold {
                hold(true)
                held = hold
            }
            sleepNanoseconds(max(Int64(clamping: pause.clampedNanoseconds), 1_000_000))
        }
        held?(false)
        let send = state.withLock { s -> (@Sendable (Duration) -> Void)? in
            defer {
                s.pending = nil
                s.hold = nil
                s.waiting = false
            }
            return s.closed ? nil : s.pending
        }
        send?(.nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - since)))
    }
}

/// Blocks the gate's own queue (never a caller's thread) between looks at the demuxer.
private func sleepNanoseconds(_ nanoseconds: Int64) {
    var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
