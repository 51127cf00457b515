import CoveCore
import Foundation
import Synchronization

/// What every `MediaEngine` must do for the controller, as checks that run against any engine alike:
/// Cove's GStreamer engine, the scripted engine the controller's unit tests use, or an app's own. The
/// controller's tests trust the scripted engine to behave like the real one; this contract is where
/// that trust is checked (the pause-after-seek bug hid in the gap between the two).
///
/// Each clause plays `media` (on-demand, at least `seekTarget` + 2 s long) on a fresh player and says
/// what it saw when the engine broke it. Waits are for the engine's own events, with `timeout` as the
/// bound; "nothing more happened" is judged after a barrier (a volume change the engine reports back),
/// since an engine reports in order.
public struct MediaEngineContract: Sendable {
    public struct Violation: Error, Sendable, CustomStringConvertible {
        /// The clause broken ("a pause right after a seek holds").
        public let clause: String
        /// What the engine did instead, with the events it reported.
        public let detail: String
        public var description: String { "\(clause): \(detail)" }
    }

    public let media: URL
    public let pacing: Pacing
    public let seekTarget: MediaTime
    public let timeout: Duration

    public init(media: URL, pacing: Pacing = .realTime, seekTarget: MediaTime = .seconds(6), timeout: Duration = .seconds(20)) {
        self.media = media
        self.pacing = pacing
        self.seekTarget = seekTarget
        self.timeout = timeout
    }

    /// Runs every clause on `engine`; an empty answer means the engine keeps the contract.
    public func check(_ engine: any MediaEngine) async -> [Violation] {
        var violations: [Violation] = []
        for clause in [prerollsBeforePlaying, aPauseRightAfterASeekHolds, closeEndsTheEvents] {
            do { try await clause(engine) } catch let violation as Violation { violations.append(violation) } catch {
                violations.append(Violation(clause: "setup", detail: "\(error)"))
            }
        }
        return violations
    }

    // MARK: Clauses

    /// `load(playWhenReady: false)` reports `.prerolled` with the media's duration and does not play until
    /// `play()`; then `.playing`.
    func prerollsBeforePlaying(_ engine: any MediaEngine) async throws {
        let clause = "it prerolls and waits for play()"
        let (player, log) = try makePlayer(engine)
        defer { player.close() }
        player.load(playWhenReady: false)
        let info = try await log.first(clause, timeout) { if case .prerolled(let info) = $0 { info } else { nil } }
        if info.duration.map({ $0 <= .zero }) ?? true {
            throw Violation(clause: clause, detail: "an on-demand file prerolled with duration \(String(describing: info.duration))")
        }
        try await barrier(player, log, clause)
        if log.contains({ if case .playing = $0 { true } else { false } }) {
            throw Violation(clause: clause, detail: "it played before play(): \(log.names)")
        }
        player.play()
        _ = try await log.first(clause, timeout) { if case .playing = $0 { true } else { nil } }
    }

    /// Playing, a `seek` and at once a `pause`: the seek completes at its target and the player stays
    /// paused (no `.playing` after the `.paused`, `status.isPlaying` false).
    func aPauseRightAfterASeekHolds(_ engine: any MediaEngine) async throws {
        let clause = "a pause right after a seek holds"
        let (player, log) = try makePlayer(engine)
        defer { player.close() }
        player.load(playWhenReady: true)
        _ = try await log.first(clause, timeout) { if case .playing = $0 { true } else { nil } }
        let mark = log.count
        player.seek(to: seekTarget, tolerance: .zero, id: 1)
        player.pause()
        let succeeded = try await log.first(clause, timeout, from: mark) { if case .seekCompleted(1, let ok) = $0 { ok } else { nil } }
        if !succeeded { throw Violation(clause: clause, detail: "the seek failed: \(log.names(from: mark))") }
        do {
            _ = try await log.first(clause, timeout, from: mark) { if case .paused = $0 { true } else { nil } }
        } catch {
            throw Violation(clause: clause, detail: "the pause was lost: no .paused after the seek: \(log.names(from: mark))")
        }
        try await barrier(player, log, clause)
        let after = Array(log.events.dropFirst(mark))
        let lastPaused = after.lastIndex { if case .paused = $0 { true } else { false } } ?? 0
        if after[lastPaused...].contains(where: { if case .playing = $0 { true } else { false } }) || player.status.isPlaying {
            throw Violation(clause: clause, detail: "it played again after the pause: \(log.names(from: mark)), isPlaying \(player.status.isPlaying)")
        }
        if let position = player.position, abs(position.seconds - seekTarget.seconds) > 0.5 {
            throw Violation(clause: clause, detail: "paused at \(position), not at the seek's target \(seekTarget)")
        }
    }

    /// `close()` finishes `events`, and closing again is harmless.
    func closeEndsTheEvents(_ engine: any MediaEngine) async throws {
        let clause = "close() ends the events"
        let (player, log) = try makePlayer(engine)
        player.load(playWhenReady: false)
        _ = try await log.first(clause, timeout) { if case .prerolled = $0 { true } else { nil } }
        player.close()
        player.close()
        guard await log.waitForEnd(timeout) else { throw Violation(clause: clause, detail: "the events never finished after close()") }
    }

    // MARK: Support

    private func makePlayer(_ engine: any MediaEngine) throws -> (any EnginePlayer, EngineEventLog) {
        let player = try engine.makePlayer(configuration: EnginePlayerConfiguration(url: media, pacing: pacing))
        return (player, EngineEventLog(player.events))
    }

    /// Waits until the engine has handled everything sent before: it reports a volume change back in
    /// order with the rest.
    private func barrier(_ player: any EnginePlayer, _ log: EngineEventLog, _ clause: String) async throws {
        let mark = log.count
        let marker = AudioVolume(level: 0.5 + Double(mark % 7) / 100, isMuted: false)
        player.setVolume(marker)
        do {
            _ = try await log.first(clause, timeout, from: mark) {
                if case .volumeChanged(let v) = $0, abs(v.level - marker.level) < 0.001 { true } else { nil }
            }
        } catch {
            throw Violation(clause: clause, detail: "the engine never reported the volume change used to wait for it (it must report .volumeChanged)")
        }
    }
}

/// An engine player's events as they arrive, with waits for one of them.
final class EngineEventLog: Sendable {
    private struct State {
        var events: [EngineEvent] = []
        var finished = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0

        /// Takes every waiter out, to be resumed outside the lock.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
    }

    /// The state, in a class the reading task can hold (a `Mutex` cannot be captured).
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    private let reader: Task<Void, Never>

    init(_ events: AsyncStream<EngineEvent>) {
        let shared = self.shared
        reader = Task {
            for await event in events {
                let waiters = shared.state.withLock { s in
                    s.events.append(event)
                    return s.takeWaiters()
                }
                for waiter in waiters { waiter.resume() }
            }
            let waiters = shared.state.withLock { s in
                s.finished = true
                return s.takeWaiters()
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    var events: [EngineEvent] { shared.state.withLock { $0.events } }
    var count: Int { shared.state.withLock { $0.events.count } }
    var names: [String] { names(from: 0) }

    /// Each event's case name, from `mark` on, for messages.
    func names(from mark: Int) -> [String] {
        events.dropFirst(mark).map { event in String("\(event)".prefix { $0 != "(" }) }
    }

    func contains(_ predicate: (EngineEvent) -> Bool) -> Bool { events.contains(where: predicate) }

    /// The first event at or after `mark` that `match` answers for, waiting up to `timeout`.
    func first<T>(_ clause: String, _ timeout: Duration, from mark: Int = 0, _ match: (EngineEvent) -> T?) async throws -> T {
        let deadline = ContinuousClock.now + timeout
        var seen = mark
        while true {
            let (events, finished) = shared.state.withLock { ($0.events, $0.finished) }
            for event in events.dropFirst(seen) { if let value = match(event) { return value } }
            seen = max(seen, events.count)
            if finished { throw MediaEngineContract.Violation(clause: clause, detail: "the events ended first: \(names(from: mark))") }
            guard ContinuousClock.now < deadline else {
                throw MediaEngineContract.Violation(clause: clause, detail: "timed out after \(timeout); events: \(names(from: mark))")
            }
            await waitForNext(after: events.count, until: deadline)
        }
    }

    /// Whether the events finish within `timeout`.
    func waitForEnd(_ timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (count, finished) = shared.state.withLock { ($0.events.count, $0.finished) }
            if finished { return true }
            guard ContinuousClock.now < deadline else { return false }
            await waitForNext(after: count, until: deadline)
        }
    }

    /// Returns once there are more than `count` events, the events have ended, or the deadline passed.
    private func waitForNext(after count: Int, until deadline: ContinuousClock.Instant) async {
        let shared = self.shared
        let id = shared.state.withLock { s -> Int in
            s.nextWaiter += 1
            return s.nextWaiter
        }
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            shared.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = shared.state.withLock { s -> Bool in
                if s.events.count != count || s.finished || ContinuousClock.now >= deadline { return true }
                s.waiters[id] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
    }

    deinit { reader.cancel() }
}
