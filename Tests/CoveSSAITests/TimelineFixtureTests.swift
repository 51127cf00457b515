import CoveSSAI
import Testing

/// The Brightcove Dynamic Delivery fixture: pre-roll 5.9392 s, a two-ad mid-roll (12.1788 s +
/// 15 s) at content 10 s, post-roll 8.008 s, content 60.0574 s, payload 101.1834 s.
@Suite("Ad timeline of the Brightcove fixture")
struct TimelineFixtureTests {
    let timeline: AdTimeline

    init() throws {
        timeline = try AdTimeline.make(from: try VMAP.parse(BrightcoveVMAP.dynamicDelivery))
    }

    @Test func placesThreeBreaksAtExactStreamRanges() throws {
        #expect(timeline.warnings.isEmpty, "\(timeline.warnings)")
        #expect(timeline.breaks.map(\.index) == [0, 1, 2])
        #expect(timeline.breaks.map(\.id) == ["PreRoll_0_0", "MidRoll_10_0", "PostRoll_60_0"])
        #expect(timeline.breaks.map(\.kind) == [.preRoll, .midRoll, .postRoll])
        #expect(timeline.breaks.map(\.contentOffset) == [.zero, try seconds("10"), try seconds("60.0574")])
        #expect(
            timeline.breaks.map(\.streamRange) == [
                TL.range(.zero, try seconds("5.9392")),
                TL.range(try seconds("15.9392"), try seconds("43.118")),
                TL.range(try seconds("93.1754"), try seconds("101.1834")),
            ])
        #expect(timeline.contentDuration == (try seconds("60.0574")))
        #expect(timeline.totalAdDuration == (try seconds("41.126")))
        #expect(timeline.streamDuration == (try seconds("101.1834")))
    }

    @Test func placesEachAdBackToBack() throws {
        let ads = timeline.ads
        #expect(ads.map(\.id) == ["1", "2", "3", "4"])
        #expect(ads.map(\.breakIndex) == [0, 1, 1, 2])
        #expect(ads.map(\.index) == [0, 0, 1, 0])
        #expect(
            ads.map(\.streamRange) == [
                TL.range(.zero, try seconds("5.9392")),
                TL.range(try seconds("15.9392"), try seconds("28.118")),
                TL.range(try seconds("28.118"), try seconds("43.118")),
                TL.range(try seconds("93.1754"), try seconds("101.1834")),
            ])
        #expect(ads.map(\.duration) == [try seconds("5.9392"), try seconds("12.1788"), try seconds("15"), try seconds("8.008")])
        #expect(ads.map(\.title) == ["Portals", "Marketing", "Second in pod", "Brand"])
    }

    @Test func keepsTheParsedVASTValues() throws {
        let preRoll = timeline.breaks[0]
        #expect(preRoll.trackingEvents.map(\.event) == [.breakStart, .breakEnd])
        #expect(preRoll.sources.count == 1)
        let first = preRoll.ads[0]
        #expect(first.impressions.map(\.id) == ["imp-1", nil])
        #expect(first.linear.trackingEvents.count == 7)
        #expect(first.inLine.adSystem?.name == "Test Ad Server")
        let second = timeline.breaks[1].ads[0]
        #expect(second.clickThrough?.url == "https://advertiser.example.com/landing?src=ssai")
        #expect(second.clickTracking.map(\.id) == ["ct-1", "ct-2"])
        #expect(second.companions.map(\.width) == [300])
        #expect(second.skipOffset == .time(try seconds("5")))
        #expect(second.vastAd.sequence == 1)
    }

    @Test func mapsContentTimeToStreamTime() throws {
        let cases: [(String, String, String)] = [
            // content, stream (break first), stream (after breaks)
            ("0", "0", "5.9392"),
            ("5", "10.9392", "10.9392"),
            ("9.999", "15.9382", "15.9382"),
            ("10", "15.9392", "43.118"),
            ("10.001", "43.119", "43.119"),
            ("20", "53.118", "53.118"),
            ("60.0574", "93.1754", "101.1834"),
            ("1000", "93.1754", "101.1834"),
        ]
        for (content, stream, after) in cases {
            #expect(timeline.streamTime(forContentTime: try seconds(content)) == (try seconds(stream)), "content \(content)")
            #expect(timeline.streamTimeAfterBreaks(atContentTime: try seconds(content)) == (try seconds(after)), "content \(content)")
        }
    }

    @Test func mapsStreamTimeToContentTimeClampingInsideBreaks() throws {
        let cases: [(String, String)] = [
            ("0", "0"), ("3", "0"), ("5.9391", "0"), ("5.9392", "0"), ("6", "0.0608"),
            ("15.9391", "9.9999"), ("15.9392", "10"), ("30", "10"), ("43.1179", "10"), ("43.118", "10"),
            ("43.119", "10.001"), ("93.1753", "60.0573"), ("93.1754", "60.0574"), ("100", "60.0574"),
            ("101.1834", "60.0574"), ("500", "60.0574"),
        ]
        for (stream, content) in cases {
            #expect(timeline.contentTime(forStreamTime: try seconds(stream)) == (try seconds(content)), "stream \(stream)")
        }
    }

    @Test func tellsAdFromContent() throws {
        #expect(timeline.position(atStreamTime: .zero) == .ad(breakIndex: 0, adIndex: 0, timeIntoAd: .zero, timeIntoBreak: .zero))
        #expect(timeline.position(atStreamTime: try seconds("5.9392")) == .content(.zero))
        #expect(
            timeline.position(atStreamTime: try seconds("30"))
                == .ad(
                    breakIndex: 1, adIndex: 1, timeIntoAd: try seconds("1.882"), timeIntoBreak: try seconds("14.0608")
                ))
        #expect(
            timeline.position(atStreamTime: try seconds("28.118"))
                == .ad(
                    breakIndex: 1, adIndex: 1, timeIntoAd: .zero, timeIntoBreak: try seconds("12.1788")
                ))
        #expect(timeline.position(atStreamTime: try seconds("43.118")) == .content(try seconds("10")))
        #expect(
            timeline.position(atStreamTime: try seconds("101.1833"))
                == .ad(
                    breakIndex: 2, adIndex: 0, timeIntoAd: try seconds("8.0079"), timeIntoBreak: try seconds("8.0079")
                ))
        #expect(timeline.position(atStreamTime: try seconds("101.1834")) == .content(try seconds("60.0574")))
    }

    @Test func crossingQueriesFollowTheSeekRules() throws {
        func crossed(_ from: String, _ to: String) throws -> [Int] {
            timeline.breaks(crossedFrom: try seconds(from), to: try seconds(to)).map(\.index)
        }
        #expect(try crossed("0", "20") == [1])  // forward across one
        #expect(try crossed("0", "60.0574") == [1, 2])  // to the end: mid-roll and post-roll
        #expect(try crossed("5", "10") == [1])  // landing on the offset includes it
        #expect(try crossed("10", "20") == [])  // starting on the offset excludes it
        #expect(try crossed("0", "9.9999") == [])
        #expect(try crossed("20", "60") == [])  // just short of the end
        #expect(try crossed("20", "60.0574") == [2])
        #expect(try crossed("20", "999") == [2])  // past the end
        #expect(try crossed("20", "5") == [])  // backward
        #expect(try crossed("0", "0") == [])
        #expect(timeline.nextBreak(afterContentTime: .zero)?.index == 1)
        #expect(timeline.nextBreak(afterContentTime: try seconds("10"))?.index == 2)
        #expect(timeline.nextBreak(afterContentTime: try seconds("60.0574")) == nil)
        #expect(timeline.adBreak(atContentOffset: try seconds("10"))?.index == 1)
        #expect(timeline.adBreak(atContentOffset: try seconds("10.001")) == nil)
    }

    @Test func quartilesAndScheduledBeaconsAreStreamTimes() throws {
        let first = timeline.breaks[0].ads[0]
        let quartiles = first.quartiles
        #expect(
            [quartiles.start, quartiles.firstQuartile, quartiles.midpoint, quartiles.thirdQuartile, quartiles.complete] == [
                .zero, try seconds("1.4848"), try seconds("2.9696"), try seconds("4.4544"), try seconds("5.9392"),
            ])
        let scheduled = first.scheduledTracking
        #expect(scheduled.map(\.event.event) == [.start, .firstQuartile, .midpoint, .progress, .thirdQuartile, .complete])
        #expect(
            scheduled.map(\.streamTime) == [
                .zero, try seconds("1.4848"), try seconds("2.9696"), try seconds("3"), try seconds("4.4544"), try seconds("5.9392"),
            ])
        let mid = timeline.breaks[1]
        #expect(mid.ads[0].skipStreamTime == (try seconds("20.9392")))
        #expect(mid.ads[1].skipStreamTime == (try seconds("31.868")))  // 25 % of 15 s
        #expect(mid.ads[1].scheduledTracking.map(\.streamTime) == [try seconds("28.118"), try seconds("35.618")])
        #expect(mid.ads[0].quartiles.thirdQuartile == (try seconds("15.9392")).adding(try seconds("9.1341"))!)
        #expect(timeline.breaks[2].ads[0].skipStreamTime == nil)
    }

    @Test func onceUXFixtureAddsUpToItsPayload() throws {
        let once = try AdTimeline.make(from: try VMAP.parse(BrightcoveVMAP.onceUX))
        #expect(once.warnings.isEmpty, "\(once.warnings)")
        #expect(
            once.breaks.map(\.streamRange) == [
                TL.range(.zero, try seconds("30.0666666")),
                TL.range(try seconds("40.0666666"), try seconds("82.0666666")),
                TL.range(try seconds("177.9336666"), try seconds("196.067")),
            ])
        #expect(once.streamDuration == (try seconds("196.067")))
        // Legacy servers put bare-second offsets on the quartile events; they win over the quartiles.
        #expect(once.breaks[0].ads[0].scheduledTracking.map(\.streamTime) == [.zero, TL.s(7), TL.s(15), TL.s(22), TL.s(30)])
        #expect(once.contentTime(forStreamTime: TL.s(60)) == TL.s(10))
        #expect(once.streamTime(forContentTime: TL.s(100)) == (try seconds("172.0666666")))
    }

    @Test func playStateIsSeparateFromTheTimeline() {
        var state = AdPlayState()
        #expect(state.unplayedBreaks(in: timeline).map(\.index) == [0, 1, 2])
        state = state.markingPlayed(timeline.breaks[0]).markingPlayed(timeline.breaks[2])
        #expect(state.hasPlayed(timeline.breaks[0]))
        #expect(!state.hasPlayed(timeline.breaks[1]))
        #expect(state.unplayedBreaks(in: timeline).map(\.index) == [1])
        #expect(state.markingPlayed(timeline.breaks[0]) == state)
    }
}
