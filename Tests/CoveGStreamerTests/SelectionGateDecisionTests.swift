@testable import CoveGStreamer
import Testing

/// The selection gate's timing rule, on a manual clock (nanoseconds): wait while a selection is in
/// flight (at most `inFlightLimit`) and for `settle` after one was applied.
@Suite struct SelectionGateDecisionTests {
    let policy = SelectionGate.Policy(settle: .milliseconds(100), inFlightLimit: .seconds(2))
    let ms: UInt64 = 1_000_000

    @Test func nothingInFlightOrSettlingSendsNow() {
        #expect(SelectionGate.delay(now: 5_000 * ms, inFlightSince: nil, appliedAt: nil, policy: policy) == nil)
        #expect(SelectionGate.delay(now: 5_000 * ms, inFlightSince: nil, appliedAt: 4_800 * ms, policy: policy) == nil)
    }

    @Test func aSelectionInFlightHoldsTheNextUntilItsLimit() {
        #expect(SelectionGate.delay(now: 1_500 * ms, inFlightSince: 1_000 * ms, appliedAt: nil, policy: policy) == .milliseconds(1_500))
        #expect(SelectionGate.delay(now: 3_000 * ms, inFlightSince: 1_000 * ms, appliedAt: nil, policy: policy) == nil, "never confirmed: stops blocking")
    }

    @Test func justAppliedWaitsTheRestOfTheSettleTime() {
        #expect(SelectionGate.delay(now: 1_030 * ms, inFlightSince: nil, appliedAt: 1_000 * ms, policy: policy) == .milliseconds(70))
    }

    @Test func aStampAfterNowCountsAsJustNow() {
        #expect(SelectionGate.delay(now: 1_000 * ms, inFlightSince: nil, appliedAt: 1_001 * ms, policy: policy) == .milliseconds(100))
    }
}
