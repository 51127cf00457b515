import CoveSSAI
import Testing

/// VMAPs that do not add up. Each costs at most the break or ad at fault, never the content and
/// never a crash; a typed error only when no break position can be trusted.
@Suite("Ad timeline of hostile VMAPs")
struct TimelineHostileTests {
    @Test func zeroDurationAndDurationlessAdsAreDropped() throws {
        let companionOnly = VASTAd(
            id: "c",
            content: .inLine(
                VASTInLine(creatives: [
                    VASTCreative(companionAds: VASTCompanionAds(companions: [VASTCompanion(width: 300, height: 250)]))
                ])))
        let document = TL.document(
            [
                TL.adBreak(
                    .time(TL.s(10)), "mid",
                    ads: [
                        TL.ad("zero", .zero), TL.ad("good", TL.s(5)), TL.ad("none", nil), companionOnly, TL.wrapper("w"),
                    ]),
                TL.adBreak(.time(TL.s(20)), "allZero", ads: [TL.ad("z", .zero)]),
            ], content: TL.s(60))
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.breaks.count == 1)
        #expect(timeline.breaks[0].ads.map(\.id) == ["good"])
        #expect(timeline.breaks[0].streamRange == TL.range(TL.s(10), TL.s(15)))
        #expect(timeline.warningKinds == [.zeroDurationAd, .adWithoutDuration, .adWithoutDuration, .unresolvedWrapper, .zeroDurationAd, .emptyBreak])
        #expect(timeline.warnings[0].location == #"AdBreak[1] "mid" › Ad[1] "zero""#)
        #expect(timeline.warnings.last?.location == #"AdBreak[2] "allZero""#)
    }

    @Test func breaksWithoutInlineAdsAreDropped() throws {
        let document = TL.document(
            [
                VMAPAdBreak(timeOffset: .start, breakId: "tag", adSource: VMAPAdSource(content: .adTagURI(VMAPAdTagURI(uri: "https://ads.example.com/x")))),
                VMAPAdBreak(timeOffset: .time(TL.s(5)), breakId: "nothing"),
                TL.adBreak(.time(TL.s(10)), "ok", duration: TL.s(3)),
            ], content: TL.s(30))
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.breaks.map(\.id) == ["ok"])
        #expect(timeline.warningKinds == [.emptyBreak, .emptyBreak])
    }

    @Test func negativeOffsetsNeverReachTheTimeline() throws {
        // The parser drops a negative offset; the timeline builds from what is left.
        let text = BrightcoveVMAP.dynamicDelivery.replacingOccurrences(of: #"timeOffset="00:00:10.000""#, with: #"timeOffset="-00:00:10.000""#)
        let document = try VMAP.parse(text)
        #expect(document.warnings.map(\.kind) == [.badTimeOffset])
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.breaks.map(\.id) == ["PreRoll_0_0", "PostRoll_60_0"])
        #expect(timeline.warningKinds == [.payloadMismatch])
        // Percentages can be written negative or NaN by hand; those breaks are dropped.
        let byHand = TL.document(
            [
                TL.adBreak(.percentage(-5), "negative", duration: TL.s(1)),
                TL.adBreak(.percentage(.nan), "nan", duration: TL.s(1)),
                TL.adBreak(.percentage(.infinity), "inf", duration: TL.s(1)),
                TL.adBreak(.start, "pre", duration: TL.s(1)),
            ], content: TL.s(10))
        let handTimeline = try AdTimeline.make(from: byHand)
        #expect(handTimeline.breaks.map(\.id) == ["pre"])
        #expect(handTimeline.warningKinds == [.invalidOffset, .invalidOffset, .invalidOffset])
    }

    @Test func offsetsBeyondTheContentBecomePostRolls() throws {
        let document = TL.document(
            [
                TL.adBreak(.time(TL.s(70)), "late", duration: TL.s(2)),
                TL.adBreak(.end, "post", duration: TL.s(3)),
                TL.adBreak(.percentage(150), "wild", duration: TL.s(4)),
                TL.adBreak(.time(TL.s(20)), "mid", duration: TL.s(5)),
            ], content: TL.s(60))
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.breaks.map(\.contentOffset) == [TL.s(20), TL.s(60)])
        #expect(timeline.breaks.map(\.kind) == [.midRoll, .postRoll])
        // Merged in document order, whatever the offsets were written as.
        #expect(timeline.breaks[1].ads.map(\.id) == ["late-ad", "post-ad", "wild-ad"])
        #expect(timeline.breaks[1].id == "late")
        #expect(timeline.breaks[1].sources.map(\.breakId) == ["late", "post", "wild"])
        #expect(timeline.breaks[1].streamRange == TL.range(TL.s(65), TL.s(74)))
        #expect(timeline.warningKinds == [.offsetBeyondContent, .offsetBeyondContent, .mergedBreaks])
        #expect(timeline.streamDuration == TL.s(74))
    }

    @Test func sameOffsetBreaksMergeInDocumentOrder() throws {
        let document = TL.document(
            [
                TL.adBreak(.time(TL.s(30)), "b", duration: TL.s(4)),
                TL.adBreak(.time(TL.s(10)), "a1", ads: [TL.ad("x", TL.s(2)), TL.ad("y", TL.s(3))]),
                TL.adBreak(.time(TL.s(10)), "a2", duration: TL.s(1)),
                TL.adBreak(.start, "p1", duration: TL.s(1)),
                TL.adBreak(.time(.zero), "p2", duration: TL.s(1)),
            ], content: TL.s(40))
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.breaks.map(\.id) == ["p1", "a1", "b"])
        #expect(timeline.breaks[1].ads.map(\.id) == ["x", "y", "a2-ad"])
        #expect(timeline.breaks[1].ads.map(\.index) == [0, 1, 2])
        #expect(
            timeline.breaks.map(\.streamRange) == [
                TL.range(.zero, TL.s(2)), TL.range(TL.s(12), TL.s(18)), TL.range(TL.s(38), TL.s(42)),
            ])
        #expect(timeline.warningKinds == [.mergedBreaks, .mergedBreaks])
        #expect(timeline.warnings.map(\.location) == [#"AdBreak[4] "p1" + AdBreak[5] "p2""#, #"AdBreak[2] "a1" + AdBreak[3] "a2""#])
        // Building twice gives the same value.
        #expect(try AdTimeline.make(from: document) == timeline)
    }

    @Test func percentageOffsetsAreFractionsOfTheContent() throws {
        let document = TL.document(
            [
                TL.adBreak(.percentage(50), "half", duration: TL.s(5)),
                TL.adBreak(.percentage(100.0 / 3), "third", duration: TL.s(5)),
                TL.adBreak(.percentage(0), "zero", duration: TL.s(5)),
                TL.adBreak(.percentage(100), "all", duration: TL.s(5)),
            ], content: TL.s(60))
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.breaks.map(\.contentOffset) == [.zero, TL.s(20), TL.s(30), TL.s(60)])
        #expect(timeline.breaks.map(\.kind) == [.preRoll, .midRoll, .midRoll, .postRoll])
        #expect(timeline.warnings.isEmpty)
        // The parsed form: 12.5% of 60.0574 s.
        let parsed = try VMAP.parse(BrightcoveVMAP.dynamicDelivery.replacingOccurrences(of: "00:00:10.000", with: "12.5%"))
        #expect(try AdTimeline.make(from: parsed).breaks[1].contentOffset == TL.ns(7_507_175_000))
    }

    @Test func endAndPercentageNeedTheContentDuration() throws {
        let withEnd = TL.document([TL.adBreak(.start, "pre", duration: TL.s(5)), TL.adBreak(.end, "post", duration: TL.s(5))])
        let error = try #require(expectTimelineFailure(withEnd, .unknownContentDuration))
        #expect(error.location == #"AdBreak[2] "post""#)
        #expect(error.description.contains("contentDuration"))
        expectTimelineFailure(TL.document([TL.adBreak(.percentage(50), "half", duration: TL.s(5))]), .unknownContentDuration)
        // Passing the duration fixes it.
        let timeline = try AdTimeline.make(from: withEnd, contentDuration: TL.s(30))
        #expect(timeline.breaks.map(\.streamRange) == [TL.range(.zero, TL.s(5)), TL.range(TL.s(35), TL.s(40))])
        // So does a stream duration: content is the stream minus the ads.
        let fromStream = try AdTimeline.make(from: withEnd, streamDuration: TL.s(40))
        #expect(fromStream.contentDuration == TL.s(30))
        #expect(fromStream.warningKinds == [.contentDurationDerived])
        // Or a payloadlength.
        let withPayload = TL.document(withEnd.adBreaks, payload: TL.s(50))
        #expect(try AdTimeline.make(from: withPayload).contentDuration == TL.s(40))
        // An empty post-roll needs nothing.
        let emptyPost = TL.document([VMAPAdBreak(timeOffset: .end), TL.adBreak(.start, "pre", duration: TL.s(5))])
        #expect(try AdTimeline.make(from: emptyPost).breaks.map(\.id) == ["pre"])
    }

    @Test func unknownDurationStillMapsTimeOffsets() throws {
        let document = TL.document([TL.adBreak(.start, "pre", duration: TL.s(5)), TL.adBreak(.time(TL.s(10)), "mid", duration: TL.s(2))])
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.contentDuration == nil)
        #expect(timeline.streamDuration == nil)
        #expect(timeline.breaks.map(\.kind) == [.preRoll, .midRoll])
        #expect(timeline.streamTime(forContentTime: TL.s(1000)) == TL.s(1007))
        #expect(timeline.contentTime(forStreamTime: TL.s(1007)) == TL.s(1000))
        #expect(timeline.breaks(crossedFrom: .zero, to: TL.s(1000)).map(\.id) == ["mid"])
    }

    @Test func disagreeingLengthsAreWarnings() throws {
        let breaks = [TL.adBreak(.start, "pre", duration: TL.s(5)), TL.adBreak(.end, "post", duration: TL.s(5))]
        let mismatch = try AdTimeline.make(from: TL.document(breaks, content: TL.s(60), payload: TL.s(200)))
        #expect(mismatch.warningKinds == [.payloadMismatch])
        #expect(mismatch.streamDuration == TL.s(70))
        let close = try AdTimeline.make(from: TL.document(breaks, content: TL.s(60), payload: TL.ms(70_400)))
        #expect(close.warnings.isEmpty)
        let lengths = try AdTimeline.make(from: TL.document(breaks, content: TL.s(60)), contentDuration: TL.s(61))
        #expect(lengths.warningKinds == [.contentDurationMismatch])
        #expect(lengths.contentDuration == TL.s(60))
        #expect(try AdTimeline.make(from: TL.document(breaks, content: TL.s(60)), contentDuration: TL.ms(60_300)).warnings.isEmpty)
    }

    @Test func adsLongerThanTheStreamAreDropped() throws {
        let document = try VMAP.parse(BrightcoveVMAP.dynamicDelivery)
        // Within the tolerance nothing changes.
        #expect(try AdTimeline.make(from: document, streamDuration: try seconds("101")) == (try AdTimeline.make(from: document)))
        // The post-roll does not fit.
        let short = try AdTimeline.make(from: document, streamDuration: TL.s(95))
        #expect(short.breaks.map(\.id) == ["PreRoll_0_0", "MidRoll_10_0"])
        #expect(short.warningKinds == [.adsBeyondStream])
        #expect(short.warnings[0].location == #"AdBreak[3] "PostRoll_60_0" › Ad[1] "4""#)
        #expect(short.streamDuration == (try seconds("93.1754")))
        // Half the mid-roll fits; content does not.
        let shorter = try AdTimeline.make(from: document, streamDuration: TL.s(30))
        #expect(shorter.ads.map(\.id) == ["1", "2"])
        #expect(shorter.breaks[1].streamRange == TL.range(try seconds("15.9392"), try seconds("28.118")))
        #expect(shorter.warningKinds == [.adsBeyondStream, .adsBeyondStream, .streamShorterThanContent])
        #expect(shorter.totalAdDuration == (try seconds("18.118")))
        // Nothing fits: content plays without ads.
        let none = try AdTimeline.make(from: document, streamDuration: TL.s(1))
        #expect(none.breaks.isEmpty)
        #expect(none.streamTime(forContentTime: TL.s(10)) == TL.s(10))
        #expect(none.position(atStreamTime: TL.s(3)) == .content(TL.s(3)))
    }

    @Test func ignoredAttributesAndUnsupportedOffsetsAreNamed() throws {
        let document = TL.document(
            [
                TL.adBreak(.position(2), "cue", duration: TL.s(1)),
                TL.adBreak(.time(TL.s(10)), "repeat", ads: [TL.ad("r", TL.s(2))], repeatAfter: TL.s(60)),
            ], content: TL.s(100))
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.breaks.map(\.id) == ["repeat"])
        #expect(timeline.warningKinds == [.positionOffsetUnsupported, .repeatAfterIgnored])
        #expect(timeline.warnings.allSatisfy { !$0.message.isEmpty && !$0.description.contains("https://") })
    }

    @Test func overflowingTimesAreATypedError() throws {
        let huge = TL.ns(Int64.max / 2 + 1)
        expectTimelineFailure(TL.document([TL.adBreak(.start, "a", ads: [TL.ad("1", huge), TL.ad("2", huge)])]), .timeOverflow)
        expectTimelineFailure(TL.document([TL.adBreak(.start, "a", duration: huge)], content: huge), .timeOverflow)
        expectTimelineFailure(TL.document([TL.adBreak(.time(huge), "a", duration: huge)]), .timeOverflow)
    }

    @Test func queriesNeverTrap() throws {
        let extremes = [AdTime.zero, TL.ns(1), TL.ns(Int64.max - 1), TL.ns(Int64.max)]
        let timelines = [
            try AdTimeline.make(from: try VMAP.parse(BrightcoveVMAP.dynamicDelivery)),
            try AdTimeline.make(from: TL.document([TL.adBreak(.time(TL.s(10)), "mid", duration: TL.s(2))])),
            try AdTimeline.make(from: TL.document([TL.adBreak(.time(TL.ns(Int64.max / 2)), "far", duration: TL.ns(Int64.max / 4))])),
            AdTimeline.contentOnly(contentDuration: nil),
            AdTimeline.contentOnly(contentDuration: .zero),
        ]
        for timeline in timelines {
            for time in extremes {
                _ = timeline.streamTime(forContentTime: time)
                _ = timeline.streamTimeAfterBreaks(atContentTime: time)
                _ = timeline.contentTime(forStreamTime: time)
                _ = timeline.position(atStreamTime: time)
                _ = timeline.nextBreak(afterContentTime: time)
                for other in extremes { _ = timeline.breaks(crossedFrom: time, to: other) }
            }
            for ad in timeline.ads {
                _ = ad.quartiles
                for offset in [VASTOffset.percentage(.nan), .percentage(-1), .percentage(1e300), .time(TL.ns(Int64.max))] {
                    #expect(ad.streamRange.contains(ad.streamTime(at: offset)) || ad.streamTime(at: offset) == ad.streamRange.upperBound)
                }
            }
        }
        #expect(timelines[3].streamTime(forContentTime: TL.ns(Int64.max)) == TL.ns(Int64.max))
        #expect(timelines[4].streamTime(forContentTime: TL.s(5)) == .zero)
    }

    @Test func zeroLengthContentPutsEveryBreakAtZero() throws {
        let document = TL.document([TL.adBreak(.start, "pre", duration: TL.s(2)), TL.adBreak(.end, "post", duration: TL.s(3))], content: .zero)
        let timeline = try AdTimeline.make(from: document)
        #expect(timeline.breaks.count == 1)
        #expect(timeline.breaks[0].kind == .preRoll)
        #expect(timeline.breaks[0].streamRange == TL.range(.zero, TL.s(5)))
        #expect(timeline.contentTime(forStreamTime: TL.s(9)) == .zero)
    }
}
