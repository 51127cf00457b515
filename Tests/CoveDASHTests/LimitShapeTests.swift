import CoveXML
import Foundation
import Testing

@testable import CoveDASH

/// The MPD's limits and the XML reader's on the shared input core (`CoveInput`): one way to say a limit
/// was exceeded, whichever reader hit it, naming the setting an app raises (none for a fixed limit).
@Suite("DASH and XML limits on the shared input core")
struct LimitShapeTests {
    func refusal(_ text: String, limits: DASHParseLimits = DASHParseLimits(), expand: Bool = false) -> DASHParseError? {
        do {
            let mpd = try MPD.parse(Array(text.utf8), url: manifestURL, limits: limits)
            if expand {
                for period in mpd.periods {
                    for set in period.adaptationSets {
                        for r in set.representations { _ = try r.segments(in: period, of: mpd, now: 1_800_000_000, limits: limits) }
                    }
                }
            }
            return nil
        } catch {
            return error
        }
    }

    @Test func bothXMLReadersSayALimitWasExceededTheSameWay() throws {
        let limits = XMLLimits(maxBytes: 4_096, maxDepth: 4, maxElements: 20, maxAttributesPerElement: 3, maxAttributeLength: 16, maxTextLength: 32)
        let documents: [(String, XMLReadError.Kind)] = [
            ("<a>" + String(repeating: "<b/>", count: 30) + "</a>", .tooManyElements),
            (String(repeating: "<a>", count: 5) + String(repeating: "</a>", count: 5), .tooDeep),
            ("<a w='1' x='1' y='1' z='1'/>", .tooManyAttributes),
            ("<a x='" + String(repeating: "v", count: 17) + "'/>", .attributeTooLong),
            ("<a>" + String(repeating: "t", count: 33) + "</a>", .textTooLong),
            ("<a>" + String(repeating: " ", count: 5_000) + "</a>", .tooLarge),
        ]
        for (text, kind) in documents {
            var errors: [XMLReadError] = []
            for reader in [GuardedXML.Reader.foundation, .scanner] {
                do {
                    _ = try GuardedXML.load(Array(text.utf8), limits: limits, reader: reader)
                    Issue.record("\(reader) read a document over a limit (\(kind))")
                } catch {
                    errors.append(error)
                }
            }
            #expect(errors.map(\.kind) == [kind, kind])
            #expect(errors.first?.advice == errors.last?.advice)
            #expect(errors.first?.element == errors.last?.element)
            #expect(errors.first?.advice.contains("raise XMLLimits.max") == true, "\(errors)")
        }
    }

    @Test func theMPDsXMLLimitsNameDASHParseLimitsOrNoneWhenFixed() {
        let elements = refusal("<MPD>" + String(repeating: "<Period/>", count: 50) + "</MPD>", limits: DASHParseLimits(maxElements: 20))
        #expect(elements?.kind == .invalidXML)
        #expect(elements?.xml?.kind == .tooManyElements)
        #expect(elements?.advice == "Ask the server for a smaller document; if it is legitimate, raise DASHParseLimits.maxElements (now 20).")
        #expect(
            elements?.description.hasPrefix("DASH manifest rejected (invalidXML: tooManyElements, line 1, <Period>): ") == true,
            "\(String(describing: elements))")
        // The attribute limits are the parser's own: the advice names no setting to raise.
        let attributes = refusal("<MPD " + (0..<65).map { "a\($0)='1'" }.joined(separator: " ") + "/>")
        #expect(attributes?.xml?.kind == .tooManyAttributes)
        #expect(attributes?.advice == "Check that the server really needs that many attributes on one element.")
    }

    @Test func periodAndSegmentLimitsSayTheValueInForce() {
        let periods = refusal(
            "<MPD type=\"static\">" + String(repeating: "<Period duration=\"PT1S\"/>", count: 3) + "</MPD>", limits: DASHParseLimits(maxPeriods: 2))
        #expect(periods?.kind == .tooLarge)
        #expect(periods?.element == "MPD")
        #expect(periods?.advice == "Check that the origin really serves that many periods; if it is legitimate, raise DASHParseLimits.maxPeriods (now 2).")
        let text = """
            <MPD type="static" mediaPresentationDuration="PT100S"><Period><AdaptationSet mimeType="video/mp4">
            <SegmentTemplate duration="1" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        let segments = refusal(text, limits: DASHParseLimits(maxSegments: 50), expand: true)
        #expect(segments?.kind == .tooLarge)
        #expect(segments?.detail == "Representation \"v\" expands to 100 segments; the limit is 50.")
        #expect(segments?.advice.hasSuffix("raise DASHParseLimits.maxSegments (now 50).") == true)
    }
}
