/// What a session's timer is for. Each has at most one armed timer at a time.
enum LoopTimer: Hashable, Sendable, CaseIterable {
    /// Progress reports (and the bumper's), every `progressInterval` while playing.
    case progressTick
    /// The next start or end of a sidecar caption cue.
    case cueBoundary
    /// A scheduled retry or automatic-resume attempt.
    case retry
    /// The bumper has been stalled for `bumperStallTimeout`.
    case bumperStall
    /// A step of the shutter's fade (`ShutterFade.tick`).
    case shutterFade
}

/// A session's timers in one table keyed by ``LoopTimer``, on the controller's injected clock.
///
/// Arming a timer replaces the one armed under the same key; a firing reaches the loop as
/// `ControllerInput.timerFired` with the arming's number, and ``fired(_:arming:)`` accepts it only if that
/// arming is still the current one — a timer cancelled or re-armed after its task woke is stale, whatever
/// order the loop sees them in. Only the controller loop touches a table.
struct TimerTable {
    private struct Armed {
        let arming: Int
        let repeats: Bool
        let task: Task<Void, Never>
    }

    private var armed: [LoopTimer: Armed] = [:]
    private var lastArming = 0

    /// Arms `timer` to fire once after `delay` (or every `delay` when `repeats`), replacing any armed one.
    /// `fire` is called from the timer's task with the arming number; it should feed the loop.
    mutating func arm(_ timer: LoopTimer, after delay: Duration, repeats: Bool = false, clock: any Clock<Duration>, fire: @escaping @Sendable (Int) -> Void) {
        cancel(timer)
        lastArming += 1
        let arming = lastArming
        let task = Task {
            repeat {
                do { try await clock.sleep(for: delay) } catch { return }
                fire(arming)
            } while repeats && !Task.isCancelled
        }
        armed[timer] = Armed(arming: arming, repeats: repeats, task: task)
    }

    /// Disarms `timer`; a firing already on its way to the loop is then stale.
    mutating func cancel(_ timer: LoopTimer) {
        armed.removeValue(forKey: timer)?.task.cancel()
    }

    /// Disarms every timer (the session ends).
    mutating func cancelAll() {
        for timer in armed.keys { cancel(timer) }
    }

    func isArmed(_ timer: LoopTimer) -> Bool { armed[timer] != nil }

    /// The number of `timer`'s current arming, if it is armed.
    func arming(of timer: LoopTimer) -> Int? { armed[timer]?.arming }

    /// Whether a firing of `timer` from `arming` counts. A one-shot timer that counts is disarmed by it.
    mutating func fired(_ timer: LoopTimer, arming: Int) -> Bool {
        guard let current = armed[timer], current.arming == arming else { return false }
        if !current.repeats { armed[timer] = nil }
        return true
    }
}
