import Testing

@testable import CoveCore

/// The plugins' playhead jumps and ad breaks: a jump goes with the next report, and ads play at 1×.
@Suite("Hooks state")
struct HooksStateTests {
    @Test func aJumpGoesWithTheNextPlayheadReportOnly() {
        var state = HooksState()
        #expect(state.handle(.playheadReported) == nil, "natural playback")
        #expect(state.handle(.playheadJumped) == nil)
        #expect(state.handle(.playheadJumped) == nil)
        #expect(state.handle(.playheadReported) == .reportJump)
        #expect(state.handle(.playheadReported) == nil)
    }

    @Test func adBreaksPlayAtOneTimesAndTheAppsRateReturnsAfter() {
        var state = HooksState()
        #expect(state.engineRate(appRate: 2) == 2)
        #expect(state.handle(.adBreakEntered(appRate: 2)) == .setEngineRate(1))
        #expect(state.handle(.adBreakEntered(appRate: 2)) == nil, "already in it")
        #expect(state.inAdBreak && state.engineRate(appRate: 2) == 1)
        #expect(state.handle(.appRateChanged(1.5)) == nil, "kept for after the break")
        #expect(state.handle(.adBreakExited(appRate: 1.5)) == .setEngineRate(1.5))
        #expect(state.handle(.adBreakExited(appRate: 1.5)) == nil, "not in one")
        #expect(state.handle(.appRateChanged(0.5)) == .setEngineRate(0.5))
    }

    @Test func atOneTimesABreakChangesNoRate() {
        var state = HooksState()
        #expect(state.handle(.adBreakEntered(appRate: 1)) == nil)
        #expect(state.inAdBreak)
        #expect(state.handle(.adBreakExited(appRate: 1)) == nil)
        #expect(!state.inAdBreak)
    }
}
