import CoveSSAI
import CoveTesting
import Testing

/// Invariants checked over grids of times and over 2 000 random VMAPs from a seeded generator
/// (SeededRandom, in TestSupport), so every run checks the same cases and a failure repeats.
@Suite("Ad timeline invariants")
struct TimelinePropertyTests {
    @Test func contentToStreamToContentRoundTripsOnAGrid() throws {
        let timeline = try AdTimeline.make(from: try VMAP.parse(BrightcoveVMAP.dynamicDelivery))
        let content = try #require(timeline.contentDuration)
        var random = SeededRandom(seed: 0xC0FE)
        var times: [AdTime] = stride(from: Int64(0), through: content.nanoseconds, by: 1_000_000).map(TL.ns)
        times += (0..<20_000).map { _ in TL.ns(Int64.random(in: 0...content.nanoseconds, using: &random)) }
        times += timeline.breaks.flatMap { [$0.contentOffset, TL.ns(max(0, $0.contentOffset.nanoseconds - 1)), TL.ns($0.contentOffset.nanoseconds + 1)] }
        for time in times where time <= content {
            #expect(timeline.contentTime(forStreamTime: timeline.streamTime(forContentTime: time)) == time)
            #expect(timeline.contentTime(forStreamTime: timeline.streamTimeAfterBreaks(atContentTime: time)) == time)
            if case .ad = timeline.position(atStreamTime: timeline.streamTimeAfterBreaks(atContentTime: time)) {
                Issue.record("after-breaks time of content \(time) is inside an ad")
            }
        }
    }

    @Test func streamToContentToStreamStaysInTheSameSegment() throws {
        let timeline = try AdTimeline.make(from: try VMAP.parse(BrightcoveVMAP.onceUX))
        let stream = try #require(timeline.streamDuration)
        for nanoseconds in stride(from: Int64(0), through: stream.nanoseconds, by: 997_000) {
            let time = TL.ns(nanoseconds)
            let back = timeline.streamTime(forContentTime: timeline.contentTime(forStreamTime: time))
            switch timeline.position(atStreamTime: time) {
            case .content:
                #expect(back == time || time == stream)
            case .ad(let breakIndex, _, _, let intoBreak):
                // Inside a break, content time is the break's offset, which maps to the break's start.
                #expect(back == timeline.breaks[breakIndex].streamRange.lowerBound)
                #expect(time.nanoseconds - back.nanoseconds == intoBreak.nanoseconds)
            }
        }
    }

    @Test func randomVMAPsKeepEveryInvariant() throws {
        var random = SeededRandom(seed: 0x5EED_7131)
        var built = 0
        var failures = 0
        var warnings = 0
        for round in 0..<2_000 {
            let (document, contentDuration, streamDuration) = Self.randomDocument(&random)
            let timeline: AdTimeline
            do {
                timeline = try AdTimeline.make(from: document, contentDuration: contentDuration, streamDuration: streamDuration)
            } catch {
                failures += 1
                // The only failure the generator can provoke: end or n% without a content duration.
                #expect(error.kind == .unknownContentDuration, "round \(round): \(error)")
                #expect(document.stream.contentLength == nil && contentDuration == nil, "round \(round)")
                continue
            }
            built += 1
            warnings += timeline.warnings.count
            Self.checkStructure(timeline, round: round)
            Self.checkMapping(timeline, round: round, random: &random)
        }
        #expect(built > 1_500)
        #expect(failures > 0)
        #expect(warnings > 0)
    }

    /// Breaks and ads tile the stream as the model says.
    static func checkStructure(_ timeline: AdTimeline, round: Int) {
        var prior = AdTime.zero
        var previousEnd: AdTime?
        var previousOffset: AdTime?
        for (index, adBreak) in timeline.breaks.enumerated() {
            #expect(adBreak.index == index, "round \(round)")
            #expect(adBreak.streamRange.lowerBound.nanoseconds == adBreak.contentOffset.nanoseconds + prior.nanoseconds, "round \(round)")
            #expect(adBreak.streamRange.lowerBound < adBreak.streamRange.upperBound, "round \(round)")
            if let previousEnd, let previousOffset {
                #expect(previousEnd < adBreak.streamRange.lowerBound, "round \(round): breaks touch or overlap")
                #expect(previousOffset < adBreak.contentOffset, "round \(round)")
            }
            if let content = timeline.contentDuration { #expect(adBreak.contentOffset <= content, "round \(round)") }
            #expect(!adBreak.ads.isEmpty && !adBreak.sources.isEmpty, "round \(round)")
            var cursor = adBreak.streamRange.lowerBound
            for (adIndex, ad) in adBreak.ads.enumerated() {
                #expect(ad.breakIndex == index && ad.index == adIndex, "round \(round)")
                #expect(ad.streamRange.lowerBound == cursor && ad.duration > .zero, "round \(round)")
                let quartiles = ad.quartiles
                #expect(quartiles.start <= quartiles.firstQuartile && quartiles.firstQuartile <= quartiles.midpoint, "round \(round)")
                #expect(quartiles.midpoint <= quartiles.thirdQuartile && quartiles.thirdQuartile <= quartiles.complete, "round \(round)")
                cursor = ad.streamRange.upperBound
            }
            #expect(cursor == adBreak.streamRange.upperBound, "round \(round)")
            prior = prior.adding(adBreak.duration)!
            previousEnd = adBreak.streamRange.upperBound
            previousOffset = adBreak.contentOffset
        }
        #expect(timeline.totalAdDuration == prior, "round \(round)")
        if let content = timeline.contentDuration {
            #expect(timeline.streamDuration == content.adding(prior), "round \(round)")
        } else {
            #expect(timeline.streamDuration == nil, "round \(round)")
        }
    }

    /// Stream → content is monotonic, flat inside breaks, slope one outside them; content →
    /// stream → content is the identity.
    static func checkMapping(_ timeline: AdTimeline, round: Int, random: inout SeededRandom) {
        let end = timeline.streamDuration ?? timeline.breaks.last.map { $0.streamRange.upperBound.adding(TL.s(60))! } ?? TL.s(60)
        var samples = (0..<200).map { _ in Int64.random(in: 0...end.nanoseconds, using: &random) }
        samples += timeline.breaks.flatMap { adBreak in
            [adBreak.streamRange.lowerBound, adBreak.streamRange.upperBound].flatMap { [$0.nanoseconds - 1, $0.nanoseconds, $0.nanoseconds + 1] }
        }
        samples = samples.filter { $0 >= 0 && $0 <= end.nanoseconds }.sorted()
        var previous: (stream: AdTime, content: AdTime, inAd: Bool)?
        for nanoseconds in samples {
            let stream = TL.ns(nanoseconds)
            let content = timeline.contentTime(forStreamTime: stream)
            var inAd = false
            if case .ad = timeline.position(atStreamTime: stream) { inAd = true }
            #expect(inAd == timeline.breaks.contains { $0.streamRange.contains(stream) }, "round \(round)")
            if let previous {
                #expect(previous.content <= content, "round \(round): not monotonic at \(stream)")
                let breaksBetween = timeline.breaks.contains { $0.streamRange.upperBound > previous.stream && $0.streamRange.lowerBound < stream }
                if !breaksBetween && !inAd && !previous.inAd, timeline.contentDuration.map({ content < $0 }) ?? true {
                    #expect(
                        content.nanoseconds - previous.content.nanoseconds == nanoseconds - previous.stream.nanoseconds, "round \(round): jump at \(stream)")
                }
            }
            previous = (stream, content, inAd)
            if !inAd {
                #expect(timeline.streamTimeAfterBreaks(atContentTime: content) == stream || timeline.contentDuration == content, "round \(round)")
            }
            #expect(timeline.contentTime(forStreamTime: timeline.streamTime(forContentTime: content)) == content, "round \(round)")
        }
    }

    /// A VMAP of 0…7 breaks with offsets of every form (some past the end, some shared), ads of
    /// every kind (zero, absent, wrapper), and sometimes lengths that disagree.
    static func randomDocument(_ random: inout SeededRandom) -> (VMAPDocument, AdTime?, AdTime?) {
        let contentMilliseconds = Int64(random.int(0...7_200_000))
        let content = TL.ms(contentMilliseconds)
        var breaks: [VMAPAdBreak] = []
        var adTotal: Int64 = 0
        for breakNumber in 0..<random.int(0...7) {
            let offset: VMAPTimeOffset =
                switch random.int(0...9) {
                case 0: .start
                case 1: .end
                case 2: .percentage(Double(random.int(0...1000)) / 10)
                case 3: .position(random.int(1...5))
                case 4: .time(TL.ms(contentMilliseconds + Int64(random.int(0...10_000))))  // maybe past the end
                case 5: .time(TL.s(10))  // shared offsets
                default: .time(TL.ms(Int64(random.int(0...Int(contentMilliseconds)))))
                }
            var ads: [VASTAd] = []
            for adNumber in 0..<random.int(0...4) {
                let id = "\(breakNumber)-\(adNumber)"
                switch random.int(0...12) {
                case 0: ads.append(TL.ad(id, .zero))
                case 1: ads.append(TL.ad(id, nil))
                case 2: ads.append(TL.wrapper(id))
                default:
                    let duration = Int64(random.int(1...60_000))
                    adTotal += duration
                    ads.append(
                        TL.ad(
                            id, TL.ms(duration), skip: .percentage(25),
                            tracking: [
                                VASTTrackingEvent(event: .start, url: "https://t.example.com/s"),
                                VASTTrackingEvent(event: .progress, url: "https://t.example.com/p", offset: .time(TL.s(5))),
                            ]))
                }
            }
            breaks.append(TL.adBreak(offset, "b\(breakNumber)", ads: ads))
        }
        let knowsLength = random.int(0...3) != 0
        let payload: AdTime? =
            switch random.int(0...3) {
            case 0: nil
            case 1: TL.ms(contentMilliseconds + adTotal + Int64(random.int(0...2_000)))
            default: TL.ms(contentMilliseconds + adTotal)
            }
        let stream: AdTime? = random.int(0...4) == 0 ? TL.ms(Int64(random.int(0...Int(contentMilliseconds + adTotal)))) : nil
        let passed: AdTime? = random.int(0...2) == 0 ? content : nil
        return (TL.document(breaks, content: knowsLength ? content : nil, payload: knowsLength ? payload : nil), passed, stream)
    }
}
