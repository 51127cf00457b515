import CoveServer
import Synchronization

/// The test kit's request interceptor: faults queued by path fragment, each used up by the requests it
/// matches (forced statuses, slow answers, cut bodies, outages). A `MediaServer` gets one the first time a
/// test asks for a fault (`forceStatus`, `delayResponses`, `cutResponses`, `scheduleOutage`).
final class FaultInjector: RequestInterceptor {
    private struct Fault<Value> {
        let pathFragment: String?
        let value: Value
        var remaining: Int?
    }

    private struct Faults {
        var statuses: [Fault<Int>] = []
        var delays: [Fault<Duration>] = []
        var cuts: [Fault<Int>] = []
        var outages: [Fault<Duration>] = []
    }

    /// Guards the queued faults: tests add them while the server's handlers take them.
    private let faults = Mutex(Faults())

    func forceStatus(_ status: Int, pathFragment: String?, count: Int?) {
        faults.withLock { $0.statuses.append(Fault(pathFragment: pathFragment, value: status, remaining: count)) }
    }

    func delay(_ delay: Duration, pathFragment: String, count: Int?) {
        faults.withLock { $0.delays.append(Fault(pathFragment: pathFragment, value: delay, remaining: count)) }
    }

    func cut(afterBytes: Int, pathFragment: String, count: Int?) {
        faults.withLock { $0.cuts.append(Fault(pathFragment: pathFragment, value: max(0, afterBytes), remaining: count)) }
    }

    func outage(lasting duration: Duration, pathFragment: String) {
        faults.withLock { $0.outages.append(Fault(pathFragment: pathFragment, value: duration, remaining: 1)) }
    }

    func clearStatuses() {
        faults.withLock { $0.statuses.removeAll() }
    }

    func clear() {
        faults.withLock { f in
            f.statuses.removeAll()
            f.delays.removeAll()
            f.cuts.removeAll()
        }
    }

    func outage(forPath path: String) -> Duration? { faults.withLock { Self.take(&$0.outages, path) } }
    func status(forPath path: String) -> Int? { faults.withLock { Self.take(&$0.statuses, path) } }
    func delay(forPath path: String) -> Duration { faults.withLock { Self.take(&$0.delays, path) } ?? .zero }
    func cut(forPath path: String) -> Int? { faults.withLock { Self.take(&$0.cuts, path) } }

    /// The first fault matching `path` (a nil fragment matches every path), used once.
    private static func take<Value>(_ list: inout [Fault<Value>], _ path: String) -> Value? {
        guard let index = list.firstIndex(where: { $0.pathFragment.map(path.contains) ?? true }) else { return nil }
        let value = list[index].value
        if let remaining = list[index].remaining {
            if remaining <= 1 { list.remove(at: index) } else { list[index].remaining = remaining - 1 }
        }
        return value
    }
}

/// Faults on request, for tests: the media server misbehaves as a flaky CDN would.
extension MediaServer {
    private var faults: FaultInjector { interceptor { FaultInjector() } }

    /// Answers `status` to requests whose path contains `pathFragment` (every request when nil),
    /// for the next `count` matching requests (forever when nil).
    public func forceStatus(_ status: Int, forPathsContaining pathFragment: String? = nil, count: Int? = nil) {
        faults.forceStatus(status, pathFragment: pathFragment, count: count)
    }

    /// Holds back the answer to requests whose path contains `pathFragment` by `delay` (on top of any
    /// first-byte delay), for the next `count` matching requests (forever when nil): one slow segment.
    public func delayResponses(forPathsContaining pathFragment: String, by delay: Duration, count: Int? = 1) {
        faults.delay(delay, pathFragment: pathFragment, count: count)
    }

    /// Sends only the first `afterBytes` of the answer to requests whose path contains `pathFragment`,
    /// then drops the connection (the length announced was the whole file): a truncated segment and
    /// a connection reset. For the next `count` matching requests (forever when nil).
    public func cutResponses(forPathsContaining pathFragment: String, afterBytes: Int, count: Int? = 1) {
        faults.cut(afterBytes: afterBytes, pathFragment: pathFragment, count: count)
    }

    public func clearForcedStatuses() {
        faults.clearStatuses()
    }

    /// Forgets every fault still waiting for its request (forced statuses, delays, cuts).
    public func clearFaults() {
        faults.clear()
    }

    /// Goes offline for `duration` as soon as a request path contains `pathFragment` (that request
    /// fails too), then comes back by itself. Ties the outage to playback progress, not to wall time.
    public func scheduleOutage(whenPathContains pathFragment: String, lasting duration: Duration) {
        faults.outage(lasting: duration, pathFragment: pathFragment)
    }
}
