import CoveServer
import CoveTestSupport
import Foundation
import Synchronization

/// A flaky origin drawn from a seed: installed as a media server's `RequestInterceptor`, it answers
/// some requests with 404/500/503, holds some back before the first byte, serves junk (an HTML error
/// page or noise) or a body cut short instead of a whole file (no more than its first 8 kB; a file shorter
/// than the cut is sent whole), and now and then takes the server down for a moment.
///
/// Each kind of decision comes from a SplitMix64 stream of its own derived from the seed: the n-th time
/// the server asks about a status gets the n-th status decision, and so on, so a seed replays the same
/// fault schedule (which request meets which decision depends on the order requests arrive in).
public final class ChaosFaults: RequestInterceptor {
    /// How often each fault happens: a probability per request the server asks about.
    public struct Rates: Sendable, Hashable {
        public var status: Double
        public var delay: Double
        public var junk: Double
        public var cut: Double
        public var outage: Double
        /// The longest delay before a first byte.
        public var maximumDelay: Duration
        /// The longest outage.
        public var maximumOutage: Duration

        public init(
            status: Double = 0.02, delay: Double = 0.04, junk: Double = 0.015, cut: Double = 0.025, outage: Double = 0.002,
            maximumDelay: Duration = .seconds(4), maximumOutage: Duration = .seconds(3)
        ) {
            self.status = status
            self.delay = delay
            self.junk = junk
            self.cut = cut
            self.outage = outage
            self.maximumDelay = maximumDelay
            self.maximumOutage = maximumOutage
        }

        /// A few faults a minute at the fixtures' request rate.
        public static let `default` = Rates()
        /// No faults: the origin behaves.
        public static let none = Rates(status: 0, delay: 0, junk: 0, cut: 0, outage: 0)
    }

    /// One fault served.
    public struct Fault: Sendable, Hashable, CustomStringConvertible {
        public let path: String
        public let what: String
        public let at: ContinuousClock.Instant

        public var description: String { "\(what) on \(path)" }
    }

    private struct State {
        var outage: SeededRandom
        var status: SeededRandom
        var delay: SeededRandom
        var junk: SeededRandom
        var cut: SeededRandom
        var counts: [String: Int] = [:]
        var recent: [Fault] = []
        var enabled = true
    }

    public let rates: Rates
    private let state: Mutex<State>

    public init(seed: UInt64, rates: Rates = .default) {
        self.rates = rates
        self.state = Mutex(
            State(
                outage: SeededRandom(seed: ChaosSeed.derive(seed, salt: 0xFA01)), status: SeededRandom(seed: ChaosSeed.derive(seed, salt: 0xFA02)),
                delay: SeededRandom(seed: ChaosSeed.derive(seed, salt: 0xFA03)), junk: SeededRandom(seed: ChaosSeed.derive(seed, salt: 0xFA04)),
                cut: SeededRandom(seed: ChaosSeed.derive(seed, salt: 0xFA05))))
    }

    /// Faults served so far, in all.
    public var total: Int { state.withLock { $0.counts.values.reduce(0, +) } }

    /// Faults served so far by kind ("503", "delay", "junk", "cut", "outage", …).
    public var counts: [String: Int] { state.withLock { $0.counts } }

    /// The last faults served (up to 200), oldest first.
    public var recent: [Fault] { state.withLock { $0.recent } }

    /// Off: every request is served as it is (decisions are still drawn, so the schedule stays the seed's).
    public func setEnabled(_ enabled: Bool) {
        state.withLock { $0.enabled = enabled }
    }

    private func record(_ what: String, _ path: String, in s: inout State) {
        s.counts[what, default: 0] += 1
        s.recent.append(Fault(path: path, what: what, at: .now))
        if s.recent.count > 200 { s.recent.removeFirst(s.recent.count - 200) }
    }

    public func outage(forPath path: String) -> Duration? {
        state.withLock { s in
            guard s.outage.chance(rates.outage) else { return nil }
            let length = Duration.milliseconds(s.outage.int(200...max(200, Int(rates.maximumOutage.components.seconds * 1000))))
            guard s.enabled else { return nil }
            record("outage", path, in: &s)
            return length
        }
    }

    public func status(forPath path: String) -> Int? {
        state.withLock { s in
            guard s.status.chance(rates.status) else { return nil }
            let roll = s.status.next(below: 10)
            let status = roll < 5 ? 503 : roll < 8 ? 500 : 404
            guard s.enabled else { return nil }
            record(String(status), path, in: &s)
            return status
        }
    }

    public func delay(forPath path: String) -> Duration {
        state.withLock { s in
            guard s.delay.chance(rates.delay) else { return .zero }
            let delay = Duration.milliseconds(s.delay.int(100...max(100, Int(rates.maximumDelay.components.seconds * 1000))))
            guard s.enabled else { return .zero }
            record("delay", path, in: &s)
            return delay
        }
    }

    public func junk(forPath path: String, length: Int) -> Data? {
        state.withLock { s in
            guard s.junk.chance(rates.junk) else { return nil }
            let page = s.junk.chance(0.5)
            let noise = Data(s.junk.bytes(min(max(length, 1), 4096)))
            guard s.enabled else { return nil }
            record(page ? "junk-html" : "junk-bytes", path, in: &s)
            if page { return Data("<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8) }
            // Noise the file's length (repeated), so the announced length still matches.
            var body = Data(capacity: length)
            while body.count < length { body.append(noise.prefix(length - body.count)) }
            return body
        }
    }

    public func cut(forPath path: String) -> Int? {
        state.withLock { s in
            guard s.cut.chance(rates.cut) else { return nil }
            let after = s.cut.chance(0.3) ? 0 : s.cut.int(1...8_000)
            guard s.enabled else { return nil }
            record("cut", path, in: &s)
            return after
        }
    }
}
