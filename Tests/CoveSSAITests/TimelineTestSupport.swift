import CoveSSAI
import Testing

/// Builders for timeline tests: VMAP documents written as values, so hostile shapes the parser
/// would never produce (a NaN percentage, a zero duration) can be tried too.
enum TL {
    /// Milliseconds as an `AdTime`; test values are always in range.
    static func ms(_ value: Int64) -> AdTime { AdTime(milliseconds: value)! }

    static func ns(_ value: Int64) -> AdTime { AdTime(nanoseconds: value)! }

    static func s(_ value: Int64) -> AdTime { ms(value * 1000) }

    static func ad(
        _ id: String, _ duration: AdTime?, skip: VASTOffset? = nil, tracking: [VASTTrackingEvent] = []
    ) -> VASTAd {
        VASTAd(
            id: id,
            content: .inLine(
                VASTInLine(
                    adTitle: "Ad \(id)",
                    creatives: [VASTCreative(linear: VASTLinear(duration: duration, skipOffset: skip, trackingEvents: tracking))]
                )))
    }

    static func wrapper(_ id: String) -> VASTAd {
        VASTAd(id: id, content: .wrapper(VASTWrapper(adTagURI: "https://ads.example.com/vast?id=\(id)")))
    }

    static func adBreak(_ offset: VMAPTimeOffset, _ id: String? = nil, ads: [VASTAd], repeatAfter: AdTime? = nil) -> VMAPAdBreak {
        VMAPAdBreak(
            timeOffset: offset, breakType: "linear", breakId: id, repeatAfter: repeatAfter,
            adSource: VMAPAdSource(content: .vast(VASTDocument(ads: ads)))
        )
    }

    /// A break of one ad of `duration`.
    static func adBreak(_ offset: VMAPTimeOffset, _ id: String, duration: AdTime) -> VMAPAdBreak {
        adBreak(offset, id, ads: [ad(id + "-ad", duration)])
    }

    static func document(_ breaks: [VMAPAdBreak], content: AdTime? = nil, payload: AdTime? = nil) -> VMAPDocument {
        VMAPDocument(
            version: "1.0", adBreaks: breaks,
            stream: VMAPStream(flavour: .brightcove, contentURL: "https://example.com/content.m3u8", contentLength: content, payloadLength: payload)
        )
    }

    static func range(_ lower: AdTime, _ upper: AdTime) -> Range<AdTime> { lower..<upper }
}

extension AdTimeline {
    /// Warning kinds, for compact expectations.
    var warningKinds: [AdTimelineWarning.Kind] { warnings.map(\.kind) }
}

/// Asserts that building fails with `kind`.
@discardableResult
func expectTimelineFailure(
    _ document: VMAPDocument, _ kind: AdTimelineError.Kind, contentDuration: AdTime? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> AdTimelineError? {
    do {
        let timeline = try AdTimeline.make(from: document, contentDuration: contentDuration)
        Issue.record("expected \(kind), but built \(timeline.breaks.count) break(s)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(!error.description.isEmpty, sourceLocation: sourceLocation)
        return error
    }
}
