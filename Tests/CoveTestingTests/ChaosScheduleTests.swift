import CoveCore
import CoveTesting
import Foundation
import Testing

/// The chaos run's schedules are the seed's: the same seed gives the same commands, gaps and faults.
@Suite("Chaos schedules")
struct ChaosScheduleTests {
    static func bursts(seed: UInt64, slot: Int, count: Int = 50) -> [[ChaosStep]] {
        var schedule = ChaosSchedule(seed: seed, slot: slot, streamCount: 7)
        return (0..<count).map { _ in schedule.nextBurst() }
    }

    @Test func aSeedReplaysTheSameCommandsAndEverySlotHasItsOwn() {
        let first = Self.bursts(seed: 42, slot: 0)
        #expect(first == Self.bursts(seed: 42, slot: 0))
        #expect(first != Self.bursts(seed: 42, slot: 1))
        #expect(first != Self.bursts(seed: 43, slot: 0))
        // A controller and videos first; then bursts of one to six commands (plus their follow-ups).
        guard case .newController = first[0][0].command, case .setVideos = first[0][1].command else {
            Issue.record("the first burst does not start with a controller and videos: \(first[0])")
            return
        }
        let steps = first.flatMap { $0 }
        #expect(steps.contains { $0.gap == .zero })
        #expect(steps.contains { if case .seek = $0.command { true } else { false } })
        #expect(steps.allSatisfy { if case .setVideos(let indices) = $0.command { indices.allSatisfy { (0..<7).contains($0) } } else { true } })
    }

    @Test func aSeedReplaysTheSameFaultDecisions() {
        func decisions(_ seed: UInt64) -> [String] {
            let faults = ChaosFaults(seed: seed, rates: .init(status: 0.2, delay: 0.2, junk: 0.2, cut: 0.2, outage: 0.05))
            return (0..<300).map { n in
                let path = "/seg\(n).ts"
                return "\(faults.outage(forPath: path).map { "\($0)" } ?? "-") \(faults.status(forPath: path).map(String.init) ?? "-") "
                    + "\(faults.delay(forPath: path)) \(faults.junk(forPath: path, length: 100)?.count ?? -1) \(faults.cut(forPath: path).map(String.init) ?? "-")"
            }
        }
        #expect(decisions(7) == decisions(7))
        #expect(decisions(7) != decisions(8))
        let faults = ChaosFaults(seed: 7, rates: .none)
        #expect((0..<100).allSatisfy { _ in faults.status(forPath: "/x") == nil && faults.cut(forPath: "/x") == nil })
        #expect(faults.total == 0)
    }

    @Test func seedsParseAsDecimalOrHex() {
        #expect(ChaosSeed.parse("12345") == 12345)
        #expect(ChaosSeed.parse("0xff") == 255)
        #expect(ChaosSeed.parse("18446744073709551615") == UInt64.max)
        #expect(ChaosSeed.parse("nope") == nil)
    }
}
