import CoveSSAI
import Testing

/// The SSAI playhead follower on the Brightcove fixture: pre-roll [0, 5.9392), a two-ad mid-roll
/// [15.9392, 28.1183) + [28.1183, 43.118) at content 10 s, post-roll [93.1754, 101.1834).
@Suite("SSAI playback tracker")
struct PlaybackTrackerTests {
    let timeline: AdTimeline

    init() throws {
        timeline = try AdTimeline.make(from: try VMAP.parse(BrightcoveVMAP.dynamicDelivery))
    }

    static func names(_ events: [SSAIPlaybackEvent]) -> [String] {
        events.compactMap { event in
            switch event {
            case .enterAdSequence(let b): "enterSequence \(b)"
            case .enterAd(let b, let a): "enterAd \(b).\(a)"
            case .exitAd(let b, let a): "exitAd \(b).\(a)"
            case .exitAdSequence(let b): "exitSequence \(b)"
            case .beacon(let key, _): "beacon \(key.breakIndex).\(key.adIndex.map(String.init) ?? "-") \(key.event) #\(key.play)"
            case .adProgress, .contentProgress: nil
            }
        }
    }

    /// Plays from 0 to `end` in `step` ticks, collecting everything.
    static func play(_ tracker: inout SSAIPlaybackTracker, from start: Double, to end: Double, step: Double = 0.25) -> [SSAIPlaybackEvent] {
        var events: [SSAIPlaybackEvent] = []
        var t = start
        while t <= end {
            events += tracker.advance(to: TL.ms(Int64((t * 1000).rounded())))
            t += step
        }
        return events
    }

    @Test func aPlayedPreRollGivesTheSeedsEventsAndEveryBeaconOnceInOrder() {
        var tracker = SSAIPlaybackTracker(timeline: timeline)
        let names = Self.names(Self.play(&tracker, from: 0, to: 7))
        #expect(names.first == "enterSequence 0")
        #expect(names.contains("beacon 0.- breakStart #0") && names.contains("beacon 0.- breakEnd #0"))
        for event in ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
            #expect(names.filter { $0 == "beacon 0.0 \(event) #0" }.count == 1, "\(event): \(names)")
        }
        let order = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map { names.firstIndex(of: "beacon 0.0 \($0) #0")! }
        #expect(order == order.sorted(), "\(names)")
        #expect(names.suffix(2) == ["exitAd 0.0", "exitSequence 0"] || names.contains("exitSequence 0"))
        #expect(tracker.place == .content)
    }

    @Test func contentProgressIsInContentTimeAndAdProgressInAdTime() {
        var tracker = SSAIPlaybackTracker(timeline: timeline)
        _ = Self.play(&tracker, from: 0, to: 6)
        let inContent = tracker.advance(to: TL.ns(9_939_200_000))
        #expect(inContent.contains(.contentProgress(TL.ms(4_000))), "\(inContent)")
        let inAd = tracker.advance(to: TL.ns(20_939_200_000))  // 5 s into the first mid-roll ad
        #expect(inAd.contains { if case .adProgress(1, 0, let t, _) = $0 { t == TL.ms(5_000) } else { false } }, "\(inAd)")
        #expect(!inAd.contains { if case .contentProgress = $0 { true } else { false } })
    }

    @Test func aCoarseTickThroughABreakStillCompletesEveryAd() {
        var tracker = SSAIPlaybackTracker(timeline: timeline)
        _ = tracker.advance(to: TL.ms(15_000))
        let names = Self.names(tracker.advance(to: TL.ms(44_000)))
        for ad in [0, 1] {
            #expect(names.contains("enterAd 1.\(ad)") && names.contains("exitAd 1.\(ad)"), "\(names)")
        }
        #expect(names.last == "exitSequence 1")
    }

    @Test func aJumpOutOfAnAdEndsItWithoutCompletingAndACrossedBreakPlaysAgain() {
        var tracker = SSAIPlaybackTracker(timeline: timeline)
        _ = tracker.advance(to: TL.ms(1_000))  // in the pre-roll
        let left = Self.names(tracker.jump(to: TL.ms(50_000)))
        #expect(left.prefix(2) == ["exitAd 0.0", "exitSequence 0"], "\(left)")
        #expect(!left.contains { $0.contains("complete") || $0.contains("breakEnd") })
        // Back to the mid-roll's start (a seek that plays it): it plays, and beacons, as play #0 …
        let first = Self.names(tracker.jump(to: TL.ns(15_939_200_000)))
        #expect(first.contains("beacon 1.0 impression #0"))
        _ = tracker.jump(to: TL.ms(50_000))
        // … and crossed again later, as play #1 (the seed: watched ads crossed again play again).
        let again = Self.names(tracker.jump(to: TL.ns(15_939_200_000)))
        #expect(again.contains("beacon 1.0 impression #1"), "\(again)")
        #expect(tracker.playsByBreak[1] == 2)
        #expect(tracker.playedBreaks == [0, 1])
    }

    @Test func repeatedPositionsFireNothingTwice() {
        var tracker = SSAIPlaybackTracker(timeline: timeline)
        var events = tracker.advance(to: TL.ms(3_000))
        events += tracker.advance(to: TL.ms(3_000))
        events += tracker.advance(to: TL.ms(3_000))
        let beacons = Self.names(events).filter { $0.hasPrefix("beacon") }
        #expect(beacons.count == Set(beacons).count, "\(beacons)")
    }
}
