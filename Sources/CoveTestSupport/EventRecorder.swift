import CoveCore
import Foundation
import Synchronization

/// Records a controller's events from the moment it is created and lets a test wait for one,
/// instead of sleeping.
///
/// It listens as a session consumer, so `await controller.settle()` (or `cursor()`) guarantees that
/// everything the controller emitted so far has been recorded.
///
/// ```swift
/// let recorder = EventRecorder(controller)
/// controller.setVideos([video])
/// try await recorder.waitFor(.ready)
/// #expect(recorder.lifecycleNames == ["PlayRequest", "PlaybackBufferEmpty", "Ready", …])
/// ```
public final class EventRecorder: Sendable {
    private let storage: Storage
    private let controller: WeakController

    public init(_ controller: PlaybackController) {
        let storage = Storage()
        self.storage = storage
        self.controller = WeakController(controller)
        controller.addSessionConsumer(storage)
        // The event stream only tells us when the controller shuts down.
        let stream = controller.events
        Task { [weak controller] in
            for await _ in stream {}
            await controller?.settle()
            storage.finish()
        }
    }

    /// The index the next event will get, once everything emitted so far is recorded: a cursor for
    /// `waitFor(from:)` that cannot be behind.
    public func cursor() async -> Int {
        await controller.value?.settle()
        return count
    }

    /// Everything recorded so far.
    public var events: [PlaybackEvent] { storage.state.withLock { $0.events } }

    /// The number of events recorded so far (a cursor for `waitFor(from:)`).
    public var count: Int { storage.state.withLock { $0.events.count } }

    /// Names of the lifecycle events recorded so far, in order.
    public var lifecycleNames: [String] { events.compactMap { $0.lifecycleEvent?.name } }

    /// Event names (lifecycle events by their seed name), in order, without the state reports that come
    /// between the steps: progress and available-commands changes (`events` has them).
    public var names: [String] {
        events.filter {
            switch $0 {
            case .progress, .availableCommandsChanged: return false
            default: return true
            }
        }.map(\.name)
    }

    /// Lifecycle events that end a wait early (unless they are what is awaited): a session that failed
    /// will not produce the awaited event, so the test fails at once with the error instead of timing out.
    public static let fatalLifecycle: Set<LifecycleEvent.Kind> = [.fail, .failedToPlayToEndTime]

    /// The kinds of the lifecycle events recorded so far, in order.
    public var lifecycleKinds: [LifecycleEvent.Kind] { events.compactMap { $0.lifecycleEvent?.kind } }

    /// The first event from `index` on that matches, waiting up to `timeout` for it. A `Fail` or
    /// `FailedToPlayToEndTime` that does not match throws immediately (pass `failOn: []` to wait through them).
    @discardableResult
    public func waitFor(
        from index: Int = 0, timeout: Duration = .seconds(30), failOn: Set<LifecycleEvent.Kind> = EventRecorder.fatalLifecycle,
        _ predicate: @escaping @Sendable (PlaybackEvent) -> Bool
    ) async throws -> PlaybackEvent {
        // Failures already recorded when the wait starts belong to the past (an earlier session);
        // only new ones cut the wait short.
        let fatalFrom = max(index, count)
        let match: @Sendable (Int, PlaybackEvent) -> Bool = { at, event in
            predicate(event) || (at >= fatalFrom && (event.lifecycleEvent.map { failOn.contains($0.kind) } ?? false))
        }
        let hit = try await waitForMatch(from: index, timeout: timeout, match)
        if !predicate(hit), let lifecycle = hit.lifecycleEvent {
            throw RecorderError(description: "the session reported \(lifecycle) while waiting; recorded: \(Self.summary(events))")
        }
        return hit
    }

    private func waitForMatch(from index: Int, timeout: Duration, _ predicate: @escaping @Sendable (Int, PlaybackEvent) -> Bool) async throws -> PlaybackEvent {
        let storage = self.storage
        let id = storage.state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        return try await withThrowingTaskGroup(of: PlaybackEvent.self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { continuation in
                    // Predicates run outside the lock, so they may read the recorder themselves.
                    var cursor = index
                    while true {
                        let (fresh, end, finished) = storage.state.withLock { s in (Array(s.events.dropFirst(cursor)), s.events.count, s.finished) }
                        if let hit = fresh.enumerated().first(where: { predicate(cursor + $0.offset, $0.element) })?.element {
                            return continuation.resume(returning: hit)
                        }
                        if finished {
                            let recorded = storage.state.withLock { Self.summary($0.events) }
                            return continuation.resume(
                                throwing: RecorderError(description: "the event stream ended before the awaited event arrived; recorded: \(recorded)"))
                        }
                        let registered = storage.state.withLock { s -> Bool in
                            guard s.events.count == end, !s.finished else { return false }
                            s.waiters[id] = Storage.Waiter(predicate: predicate, startIndex: end, continuation: continuation)
                            return true
                        }
                        if registered { return }
                        cursor = end
                    }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                let recorded = storage.state.withLock { Self.summary($0.events) }
                throw RecorderError(description: "timed out after \(timeout) waiting for an event; recorded: \(recorded)")
            }
            defer {
                group.cancelAll()
                if let waiter = storage.state.withLock({ $0.waiters.removeValue(forKey: id) }) {
                    waiter.continuation.resume(throwing: CancellationError())
                }
            }
            return try await group.next()!
        }
    }

    /// Waits for a lifecycle event of `kind` (`.ready`, `.end`, `.custom("SSAIVMAPResponseReceived")`, …).
    @discardableResult
    public func waitFor(
        _ kind: LifecycleEvent.Kind, from index: Int = 0, timeout: Duration = .seconds(30), failOn: Set<LifecycleEvent.Kind> = EventRecorder.fatalLifecycle
    ) async throws -> PlaybackEvent {
        try await waitFor(from: index, timeout: timeout, failOn: failOn.subtracting([kind])) { $0.lifecycleEvent?.kind == kind }
    }

    private static func summary(_ events: [PlaybackEvent]) -> String {
        events.filter { if case .progress = $0 { return false } else { return true } }.suffix(40).map(\.description).joined(separator: ", ")
    }
}

public struct RecorderError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// The recorder's state; it is the session consumer the controller delivers to.
private final class Storage: PlaybackSessionConsumer {
    func didReceive(_ event: PlaybackEvent) { append(event) }

    struct Waiter {
        let predicate: @Sendable (Int, PlaybackEvent) -> Bool
        let startIndex: Int
        let continuation: CheckedContinuation<PlaybackEvent, any Error>
    }

    let state = Mutex<(events: [PlaybackEvent], waiters: [Int: Waiter], finished: Bool, nextID: Int)>(([], [:], false, 0))

    func append(_ event: PlaybackEvent) {
        let (index, candidates) = state.withLock { s -> (Int, [(Int, @Sendable (Int, PlaybackEvent) -> Bool)]) in
            s.events.append(event)
            let index = s.events.count - 1
            return (index, s.waiters.filter { index >= $0.value.startIndex }.map { ($0.key, $0.value.predicate) })
        }
        // Evaluated without the lock: a predicate may read the recorder.
        let matched = candidates.filter { $0.1(index, event) }.map(\.0)
        guard !matched.isEmpty else { return }
        let ready = state.withLock { s in matched.compactMap { s.waiters.removeValue(forKey: $0)?.continuation } }
        for continuation in ready { continuation.resume(returning: event) }
    }

    func finish() {
        let waiting = state.withLock { s -> [Waiter] in
            s.finished = true
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        for waiter in waiting {
            waiter.continuation.resume(throwing: RecorderError(description: "the event stream ended before the awaited event arrived"))
        }
    }
}

private final class WeakController: @unchecked Sendable {
    weak var value: PlaybackController?
    init(_ value: PlaybackController) { self.value = value }
}

extension EventRecorder {
    /// Runs `step` (advancing a test clock) repeatedly until an event recorded after `index`
    /// matches, then returns it. Timers register with a test clock asynchronously, so one big
    /// jump could pass a timer not armed yet; small steps do not. Fails after `maxSteps`, then
    /// waits `timeout` for the event in real time.
    @discardableResult
    public func advance(
        _ step: @Sendable () async -> Void, from index: Int = 0, maxSteps: Int = 40, timeout: Duration = .seconds(5),
        until predicate: @escaping @Sendable (PlaybackEvent) -> Bool
    ) async throws -> PlaybackEvent {
        for _ in 0..<maxSteps {
            await step()
            if let match = events.dropFirst(index).first(where: predicate) { return match }
        }
        return try await waitFor(from: index, timeout: timeout, predicate)
    }
}

/// Typed views of what was recorded.
extension EventRecorder {
    /// Progress positions reported so far.
    public var progress: [MediaTime] {
        events.compactMap { if case .progress(_, let t) = $0 { return t } else { return nil } }
    }

    public var passages: [CuePointPassage] {
        events.compactMap { if case .cuePointsPassed(_, let p) = $0 { return p } else { return nil } }
    }

    public var errors: [PlaybackError] { events.compactMap { $0.lifecycleEvent?.error } }

    public var mediaType: MediaType? { events.lazy.compactMap { if case .mediaTypeDetermined(_, let m) = $0 { m } else { nil } }.first }
    public var videoType: VideoType? { events.lazy.compactMap { if case .videoTypeDetermined(_, let v) = $0 { v } else { nil } }.first }
    public var codecs: [String]? { events.lazy.compactMap { if case .codecsDetermined(_, let c) = $0 { c } else { nil } }.first }
    /// The first duration reported: `.some(nil)` for live.
    public var duration: Duration?? { events.lazy.compactMap { if case .durationChanged(_, let d) = $0 { .some(d) } else { nil } }.first }
}

extension PlaybackEvent {
    /// The event as a short line for comparing ad sequences in tests ("SequenceEnter 1", "AdEnter
    /// ad-pre", "WillPauseForAd", "End"); nil for events that are not about ads or the end.
    public var adTraceLine: String? {
        switch self {
        case .lifecycle(_, .willPauseForAd): "WillPauseForAd"
        case .adSequenceEntered(_, let q): "SequenceEnter \(q.index)"
        case .adSequenceExited(_, let q): "SequenceExit \(q.index)"
        case .adEntered(_, let a): "AdEnter \(a.adID ?? "?")"
        case .adExited(_, let a): "AdExit \(a.adID ?? "?")"
        case .adSkipped(_, let a): "AdSkipped \(a.adID ?? "?")"
        case .adPaused(_, let a): "AdPause \(a.adID ?? "?")"
        case .adResumed(_, let a): "AdResume \(a.adID ?? "?")"
        case .lifecycle(_, .end): "End"
        default: nil
        }
    }
}
