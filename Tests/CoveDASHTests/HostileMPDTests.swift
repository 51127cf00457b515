import CoveXML
import Foundation
import Testing

@testable import CoveDASH

/// Manifests made to hurt: each is refused with a typed error, quickly, never a crash or a hang.
@Suite struct HostileMPDTests {
    func refusal(_ bytes: [UInt8], limits: DASHParseLimits = DASHParseLimits(), expand: Bool = false) -> DASHParseError? {
        let started = ContinuousClock.now
        defer { #expect(ContinuousClock.now - started < .seconds(1), "refused within a second") }
        do {
            let mpd = try MPD.parse(bytes, url: manifestURL, limits: limits)
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

    @Test func badUTF8() {
        let error = refusal(Array("<MPD type=\"static\">".utf8) + [0xC3, 0x28] + Array("</MPD>".utf8))
        #expect(error?.kind == .invalidXML)
        #expect(error?.xml?.kind == .invalidUTF8)
    }

    @Test func doctypeAndEntities() {
        let billionLaughs = """
            <?xml version="1.0"?><!DOCTYPE MPD [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><MPD>&b;</MPD>
            """
        #expect(refusal(Array(billionLaughs.utf8))?.xml?.kind == .forbiddenDeclaration)
    }

    @Test func aHundredThousandNestedElements() {
        let depth = 100_000
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(refusal(Array(text.utf8))?.xml?.kind == .tooDeep)
    }

    @Test func aBillionNumberedSegments() {
        let text = """
            <MPD type="static" mediaPresentationDuration="PT1000000000S"><Period><AdaptationSet mimeType="video/mp4">
            <SegmentTemplate duration="1" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        #expect(refusal(Array(text.utf8), expand: true)?.kind == .tooLarge)
        let repeats = """
            <MPD type="static" mediaPresentationDuration="PT10S"><Period><AdaptationSet mimeType="video/mp4">
            <SegmentTemplate media="$Number$.m4s"><SegmentTimeline><S t="0" d="1" r="1000000000"/></SegmentTimeline></SegmentTemplate>
            <Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        #expect(refusal(Array(repeats.utf8), expand: true)?.kind == .tooLarge)
    }

    @Test func negativeOrHugeDurations() {
        let negative = "<MPD type=\"static\" mediaPresentationDuration=\"-PT5S\"><Period/></MPD>"
        #expect(refusal(Array(negative.utf8))?.kind == .invalidValue)
        let huge = """
            <MPD type="static" mediaPresentationDuration="PT99999999999999999999S"><Period><AdaptationSet mimeType="video/mp4">
            <SegmentTemplate duration="2" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        #expect(refusal(Array(huge.utf8), expand: true)?.kind == .tooLarge)
        let zeroScale = """
            <MPD type="static" mediaPresentationDuration="PT4S"><Period><AdaptationSet mimeType="video/mp4">
            <SegmentTemplate timescale="0" duration="2" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        #expect(refusal(Array(zeroScale.utf8))?.kind == .invalidValue)
    }

    @Test func aBaseURLToAnotherScheme() {
        let text = """
            <MPD type="static" mediaPresentationDuration="PT4S"><BaseURL>file:///etc/</BaseURL><Period><AdaptationSet mimeType="video/mp4">
            <SegmentTemplate duration="2" media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        let error = refusal(Array(text.utf8))
        #expect(error?.kind == .invalidValue)
        #expect(error?.description.contains("/etc") == false, "the URL itself is not quoted")
    }

    @Test func notAnMPD() {
        #expect(refusal(Array("<html><body>Sign in to the Wi-Fi</body></html>".utf8))?.kind == .notMPD)
        #expect(refusal([])?.xml?.kind == .empty)
        #expect(refusal(Array("<MPD type=\"static\"><Period>".utf8))?.xml?.kind == .malformedXML)
    }

    @Test func aRandomMutationCampaignNeverCrashes() async {
        var generator = SystemRandomNumberGenerator()
        let seed = Array(timelineMPD.utf8)
        for iteration in 0..<300 {
            if iteration.isMultiple(of: 10) { await Task.yield() }
            var bytes = seed
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0x20...0x7E, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert(contentsOf: Array("r=\"-1\" ".utf8), at: index)
                }
            }
            MPDFuzz.run(bytes)
        }
    }
}
