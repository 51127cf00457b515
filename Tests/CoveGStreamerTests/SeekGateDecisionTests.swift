@testable import CoveGStreamer
import Testing

/// The seek gate's rule, on a manual clock (nanoseconds): send once the demuxer has had no segment
/// data for `quiet`, or once the seek has waited `limit`.
@Suite struct SeekGateDecisionTests {
    let policy = SeekGate.Policy(quiet: .milliseconds(100), limit: .milliseconds(1500))
    let ms: UInt64 = 1_000_000

    @Test func aDemuxerThatNeverDownloadedLetsTheSeekGo() {
        #expect(SeekGate.decide(now: 5 * ms, lastData: nil, waitingSince: 5 * ms, policy: policy) == .send)
    }

    @Test func dataWithinTheQuietTimeHoldsTheSeek() {
        let decision = SeekGate.decide(now: 1_000 * ms, lastData: 990 * ms, waitingSince: 1_000 * ms, policy: policy)
        #expect(decision == .wait(.milliseconds(20)), "looks again within 20 ms")
    }

    @Test func theLastLookWaitsOnlyUntilTheQuietTimeIsReached() {
        let decision = SeekGate.decide(now: 1_000 * ms, lastData: 905 * ms, waitingSince: 990 * ms, policy: policy)
        #expect(decision == .wait(.milliseconds(5)))
    }

    @Test func quietForTheQuietTimeSends() {
        #expect(SeekGate.decide(now: 1_000 * ms, lastData: 900 * ms, waitingSince: 950 * ms, policy: policy) == .send)
    }

    @Test func aStreamThatNeverGoesQuietStillSeeksAtTheLimit() {
        #expect(SeekGate.decide(now: 2_500 * ms, lastData: 2_499 * ms, waitingSince: 1_000 * ms, policy: policy) == .send)
        #expect(SeekGate.decide(now: 2_495 * ms, lastData: 2_494 * ms, waitingSince: 1_000 * ms, policy: policy) == .wait(.milliseconds(5)))
    }

    @Test func dataStampedAfterNowCountsAsJustArrived() {
        // A streaming thread can stamp data between the gate reading the clock and reading the stamp.
        #expect(SeekGate.decide(now: 1_000 * ms, lastData: 1_001 * ms, waitingSince: 1_000 * ms, policy: policy) == .wait(.milliseconds(20)))
    }
}
