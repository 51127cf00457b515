import Foundation
import Synchronization

/// One tracking request the SSAI test server received at `/beacons/<adID>/<event>`.
public struct BeaconHit: Sendable, Hashable, CustomStringConvertible {
    /// The ad id (or break id for `breakStart`/`breakEnd`) from the path.
    public let adID: String
    /// The event name from the path (`impression`, `start`, `firstQuartile`, `breakStart`, `clickTracking`, …).
    public let event: String
    /// The raw query string, so a test can check how macros such as `[CACHEBUSTING]` were filled in.
    public let query: String?
    public let receivedAt: Date
    /// The status the server answered with (204, or the forced failure).
    public let status: Int

    public var description: String { "\(adID)/\(event)\(query.map { "?" + $0 } ?? "") → \(status)" }
}

/// Why waiting for beacons failed.
public struct BeaconWaitError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// Every beacon hit, in arrival order, shared between the server's handler and the test. Tests
/// wait for hits instead of sleeping: a waiter is resumed by the hit that satisfies it.
public final class BeaconLog: Sendable {
    private struct Waiter {
        let isSatisfied: @Sendable ([BeaconHit]) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var hits: [BeaconHit] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiterID = 0
        /// Fault knob: how many of the next hits answer `failureStatus`.
        var failuresLeft = 0
        var failureStatus = 500
    }

    private let state = Mutex(State())

    public init() {}

    /// The hits so far, in arrival order.
    public var hits: [BeaconHit] { state.withLock { $0.hits } }

    /// The hits of one event (optionally of one ad).
    public func hits(event: String, adID: String? = nil) -> [BeaconHit] {
        hits.filter { $0.event == event && (adID == nil || $0.adID == adID) }
    }

    public func clear() { state.withLock { $0.hits.removeAll() } }

    /// Makes the next `count` hits answer `status` (500 by default) instead of 204; they are still
    /// logged, with that status, so a test can count a client's retries.
    public func failNext(_ count: Int, status: Int = 500) {
        state.withLock { s in
            s.failuresLeft = max(0, count)
            s.failureStatus = status
        }
    }

    /// Logs a hit and returns the status to answer with.
    func record(adID: String, event: String, query: String?) -> Int {
        let ready = state.withLock { s -> (Int, [CheckedContinuation<Void, any Error>]) in
            var status = 204
            if s.failuresLeft > 0 {
                s.failuresLeft -= 1
                status = s.failureStatus
            }
            s.hits.append(BeaconHit(adID: adID, event: event, query: query, receivedAt: Date(), status: status))
            let hits = s.hits
            let done = s.waiters.filter { $0.value.isSatisfied(hits) }.map(\.key)
            return (status, done.compactMap { s.waiters.removeValue(forKey: $0)?.continuation })
        }
        for continuation in ready.1 { continuation.resume() }
        return ready.0
    }

    /// Returns the matching hits once there are at least `count` hits of `event` (of `adID`, when
    /// given); throws `BeaconWaitError` after `timeout`.
    @discardableResult
    public func waitFor(_ count: Int = 1, event: String, adID: String? = nil, timeout: Duration = .seconds(10)) async throws -> [BeaconHit] {
        let matches: @Sendable ([BeaconHit]) -> Bool = { hits in
            hits.lazy.filter { $0.event == event && (adID == nil || $0.adID == adID) }.count >= count
        }
        try await waitUntil(timeout: timeout, describing: "\(count) × \(event)\(adID.map { " of \($0)" } ?? "")", matches)
        return Array(hits(event: event, adID: adID).prefix(count))
    }

    /// Returns once `condition` holds for the log; throws `BeaconWaitError` after `timeout`.
    public func waitUntil(
        timeout: Duration = .seconds(10), describing what: String = "a condition", _ condition: @escaping @Sendable ([BeaconHit]) -> Bool
    ) async throws {
        let id = state.withLock { s -> Int in
            s.nextWaiterID += 1
            return s.nextWaiterID
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                try await withCheckedThrowingContinuation { continuation in
                    let satisfied = self.state.withLock { s -> Bool in
                        if condition(s.hits) { return true }
                        s.waiters[id] = Waiter(isSatisfied: condition, continuation: continuation)
                        return false
                    }
                    if satisfied { continuation.resume() }
                }
            }
            group.addTask { [self] in
                try await Task.sleep(for: timeout)
                let seen = self.state.withLock { $0.hits.map(\.description).joined(separator: ", ") }
                throw BeaconWaitError(description: "timed out after \(timeout) waiting for \(what); beacons: [\(seen)]")
            }
            defer {
                group.cancelAll()
                if let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) {
                    waiter.continuation.resume(throwing: CancellationError())
                }
            }
            try await group.next()
        }
    }
}
