import CoveSSAI
import Testing

/// The seed's seek rules on the Brightcove fixture: pre-roll at content 0, a mid-roll at 10 s
/// (stream 15.9392–43.118), a post-roll at the end (content 60.0574, stream 93.1754–101.1834).
@Suite("SSAI seek rules")
struct SeekPlanTests {
    let timeline: AdTimeline

    init() throws {
        timeline = try AdTimeline.make(from: try VMAP.parse(BrightcoveVMAP.dynamicDelivery))
    }

    @Test func forwardAcrossOneBreakPlaysItThenContinuesToTheTarget() {
        let plan = timeline.planSeek(fromContent: TL.s(2), toContent: TL.s(30))
        #expect(plan.breaksToPlay == [1])
        #expect(plan.streamTime == timeline.breaks[1].streamRange.lowerBound)
        #expect(plan.resumeStreamTime == timeline.streamTimeAfterBreaks(atContentTime: TL.s(30)))
        #expect(timeline.contentTime(forStreamTime: plan.resumeStreamTime!) == TL.s(30))
    }

    @Test func acrossSeveralOnlyTheLastPlaysUnlessThePolicySaysAll() {
        // From before the mid-roll to the very end: mid-roll and post-roll crossed.
        let end = timeline.contentDuration!
        let last = timeline.planSeek(fromContent: TL.s(2), toContent: end)
        #expect(last.breaksToPlay == [2], "the seed: only the last — here the post-roll")
        #expect(last.streamTime == timeline.breaks[2].streamRange.lowerBound)
        let all = timeline.planSeek(fromContent: TL.s(2), toContent: end, policy: .playAll)
        #expect(all.breaksToPlay == [1, 2])
        #expect(all.streamTime == timeline.breaks[1].streamRange.lowerBound)
    }

    @Test func backwardSeeksAndSeeksWithoutAdsPlayNone() {
        let back = timeline.planSeek(fromContent: TL.s(40), toContent: TL.s(5))
        #expect(back.breaksToPlay.isEmpty && back.resumeStreamTime == nil)
        #expect(timeline.contentTime(forStreamTime: back.streamTime) == TL.s(5))
        for plan in [
            timeline.planSeek(fromContent: TL.s(2), toContent: TL.s(30), adsDisabled: true),
            timeline.planSeek(fromContent: TL.s(2), toContent: TL.s(30), policy: .playNone),
        ] {
            #expect(plan.breaksToPlay.isEmpty)
            #expect(timeline.contentTime(forStreamTime: plan.streamTime) == TL.s(30))
            #expect(timeline.position(atStreamTime: plan.streamTime) == .content(TL.s(30)))
        }
    }

    @Test func aSeekOntoABreakOffsetPlaysThatBreakAndASeekWithinContentPlaysNothing() {
        let onto = timeline.planSeek(fromContent: TL.s(2), toContent: TL.s(10))
        #expect(onto.breaksToPlay == [1])
        let within = timeline.planSeek(fromContent: TL.s(12), toContent: TL.s(30))
        #expect(within.breaksToPlay.isEmpty)
    }
}
