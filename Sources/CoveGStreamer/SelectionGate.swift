import Foundation
import Synchronization

/// Sends a pipeline's stream selections (audio rendition, subtitles) one at a time.
///
/// Why: GStreamer 1.22.0's adaptivedemux2 deadlocks, or applies selections out of order, when a
/// `select-streams` event arrives right after the previous one was applied — an app choosing audio
/// and then captions, or a viewer stepping through the audio menu. `backToBackAudioSwitches…` (three
/// audio switches in a row, 15 rounds a run) without this gate: 3 of 3 runs failed, two of them with
/// the whole process deadlocked; with it, 0 of 8. A selection waits while the previous one is in flight (until the engine reports
/// STREAMS_SELECTED, or at most `inFlightLimit`) and for `settle` after one was applied; only the newest
/// waiting selection is sent, and it reads the wanted tracks when it is sent.
final class SelectionGate: Sendable {
    struct Policy: Sendable, Equatable {
        var settle: Duration = .milliseconds(100)
        /// A selection the engine never confirms stops blocking the next one after this long.
        var inFlightLimit: Duration = .seconds(2)
    }

    /// How long a selection must still wait (nil: send now). Times are monotonic nanoseconds.
    static func delay(now: UInt64, inFlightSince: UInt64?, appliedAt: UInt64?, policy: Policy) -> Duration? {
        if let since = inFlightSince {
            let elapsed = now >= since ? now - since : 0
            let limit = policy.inFlightLimit.clampedNanoseconds
            if elapsed < limit { return .nanoseconds(Int64(limit - elapsed)) }
        }
        if let applied = appliedAt {
            let elapsed = now >= applied ? now - applied : 0
            let settle = policy.settle.clampedNanoseconds
            if elapsed < settle { return .nanoseconds(Int64(settle - elapsed)) }
        }
        return nil
    }

    private struct State {
        var pending: (@Sendable () -> Bool)?
        var inFlightSince: UInt64?
        var appliedAt: UInt64?
        var closed = false
    }

    private let state = Mutex(State())
    private let policy: Policy
    private let queue = DispatchQueue(label: "cove-gst-selection-gate")

    init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Runs `send` now if nothing is in flight or settling, else when that is over (replacing any
    /// selection already waiting). `send` returns whether the engine took the selection.
    func submit(_ send: @escaping @Sendable () -> Bool) {
        state.withLock { s in
            guard !s.closed else { return }
            s.pending = send
        }
        flush()
    }

    /// The engine applied a selection (its STREAMS_SELECTED message, also for its own first choice).
    func applied() {
        state.withLock { s in
            s.inFlightSince = nil
            s.appliedAt = DispatchTime.now().uptimeNanoseconds
        }
        // Never from the caller (the bus thread): a selection sent from there is the pattern that deadlocks.
        queue.async { [self] in flush() }
    }

    func close() {
        state.withLock { s in
            s.closed = true
            s.pending = nil
        }
    }

    private func flush() {
        let now = DispatchTime.now().uptimeNanoseconds
        enum Step { case none, send(@Sendable () -> Bool), retry(after: Duration) }
        let step = state.withLock { s -> Step in
            guard !s.closed, let pending = s.pending else { return .none }
            if let wait = Self.delay(now: now, inFlightSince: s.inFlightSince, appliedAt: s.appliedAt, policy: policy) {
                return .retry(after: wait)
            }
            s.pending = nil
            s.inFlightSince = now
            return .send(pending)
        }
        switch step {
        case .none:
            break
        case .retry(let wait):
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: wait.clampedNanoseconds))) { [self] in flush() }
        case .send(let send):
            if !send() {
                // Refused (or nothing to select): no STREAMS_SELECTED will come for it.
                state.withLock { $0.inFlightSince = nil }
                flush()
            }
        }
    }
}
